/** Real temp workspaces and direct handler calls for the built-in tool tests. */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { builtinTool } from '../../../../../src/runtime/tools/builtins/index';
import type {
  BuiltinToolName,
  ToolContext,
  ToolExecutionResult,
} from '../../../../../src/runtime/tools/types';

export type CallResult = Omit<ToolExecutionResult, 'tool_call_id'>;

export interface TempWorkspace {
  /** Real path of the workspace root. */
  root: string;
  /** Real path of a sibling directory outside the workspace. */
  outside: string;
  write(relative: string, content: string | Buffer): Promise<string>;
  read(relative: string): Promise<Buffer>;
  remove(): Promise<void>;
}

export async function makeWorkspace(): Promise<TempWorkspace> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vv-builtins-')));
  const root = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  return {
    root,
    outside,
    async write(relative, content) {
      const target = path.join(root, relative);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
      return target;
    },
    read: (relative) => fs.readFile(path.join(root, relative)),
    remove: () => fs.rm(base, { recursive: true, force: true }),
  };
}

export function makeContext(workspace: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    runId: 'run_test',
    agentName: 'tester',
    toolCallId: 'call_test',
    toolName: 'unknown',
    workspace,
    metadata: {},
    sharedState: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

export async function callTool(
  name: BuiltinToolName,
  ctx: ToolContext,
  args: Record<string, unknown>,
): Promise<CallResult> {
  const output = await builtinTool(name).handler({ ...ctx, toolName: name }, args);
  if (output.type !== 'result') throw new Error(`expected a full result, got ${output.type}`);
  return output.result;
}

export function parseContent(result: CallResult): Record<string, unknown> {
  return JSON.parse(result.content) as Record<string, unknown>;
}

/** Asserts the §10.2 error shape and returns the parsed content. */
export function expectError(result: CallResult, code: string, message?: string): Record<string, unknown> {
  expect(result.status).toBe('error');
  expect(result.directive).toBe('continue');
  expect(result.error_code).toBe(code);
  const content = parseContent(result);
  expect(content.ok).toBe(false);
  expect(content.error_code).toBe(code);
  if (message !== undefined) expect(content.error).toBe(message);
  return content;
}

export async function setMtime(file: string, secondsSinceEpoch: number): Promise<void> {
  await fs.utimes(file, secondsSinceEpoch, secondsSinceEpoch);
}
