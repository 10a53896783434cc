/**
 * `vv-agent debug app-server send-message <words…>` (docs/spec/protocol.md §12.6, docs/spec/runtime.md §15.4) as a real
 * child process of `dist/main.js`: needs no settings and no network. Build first (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST_MAIN } from '../helpers/jsonl-child';
import { assertValidServerMessage } from '../helpers/schema-validation';
import { USAGE_LINE } from '../../src/cli/command-help';

jest.setTimeout(30_000);

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [DIST_MAIN, ...args], {
      cwd,
      // No settings, no model server: the debug command must not need them.
      env: { PATH: process.env.PATH, HOME: cwd, VV_AGENT_HOME: join(cwd, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

type Line = { method?: string; params?: Record<string, unknown>; jsonrpc?: string };

/** `method(detail)` for each printed line, with the detail §12.6 lists. */
function describeLine(line: Line): string {
  const params = line.params ?? {};
  const payload = (params.payload ?? {}) as Record<string, unknown>;
  switch (line.method) {
    case 'thread/status/changed':
      return `thread/status/changed(${String(params.status)})`;
    case 'item/started':
    case 'item/completed':
      return `${line.method}(${String(params.type)} ${JSON.stringify(
        params.type === 'toolCall' ? payload.toolName : payload.text,
      )})`;
    case 'item/agentMessage/delta':
      return `item/agentMessage/delta(${JSON.stringify(params.delta)})`;
    default:
      return String(line.method);
  }
}

let cwd: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'vv-debug-e2e-'));
});

afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
});

describe('vv-agent debug app-server send-message', () => {
  it('prints debug/input, then every notification up to turn/completed, in the order of §12.6; exit 0', async () => {
    const run = await runCli(['debug', 'app-server', 'send-message', 'hello'], cwd);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => JSON.parse(text) as Line);
    expect(lines[0]).toEqual({ jsonrpc: '2.0', method: 'debug/input', params: { message: 'hello' } });
    expect(lines.map(describeLine)).toEqual([
      'debug/input',
      'thread/started',
      'thread/status/changed(running)',
      'turn/started',
      'item/completed(userMessage "hello")',
      'item/started(agentMessage "")',
      'item/agentMessage/delta("hello")',
      'item/completed(agentMessage "hello")',
      'item/started(toolCall "task_finish")',
      'item/toolCall/delta',
      'item/completed(toolCall "task_finish")',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    for (const line of lines.slice(1)) assertValidServerMessage(line);
    expect(lines.at(-1)?.params).toMatchObject({
      status: 'completed',
      finalOutput: 'hello',
      completionReason: 'tool_finish',
      completionToolName: 'task_finish',
    });
    // Workspace `.`: nothing is created in the working directory.
    expect(readdirSync(cwd).filter((name) => name !== 'home')).toEqual([]);
  });

  it('joins the words with single spaces', async () => {
    const run = await runCli(['debug', 'app-server', 'send-message', 'hello', 'big', 'world'], cwd);
    expect(run.code).toBe(0);
    const first = JSON.parse(run.stdout.split('\n')[0]) as Line;
    expect(first).toEqual({ jsonrpc: '2.0', method: 'debug/input', params: { message: 'hello big world' } });
    expect(run.stdout).toContain('"finalOutput":"hello big world"');
  });

  it.each([
    [['debug', 'app-server', 'send-message'], 'debug app-server send-message requires a message'],
    [['debug', 'app-server', 'other'], 'unknown debug command'],
  ])('%j → exit 2 with the usage error', async (args, message) => {
    expect(await runCli(args, cwd)).toEqual({ code: 2, stdout: '', stderr: `${message}\n${USAGE_LINE}\n` });
  });
});
