/**
 * How a vv-agent tool call looks to an ACP client (docs/spec/acp.md §3): its `kind`, a short human `title`,
 * the files it touches (`locations`, absolute) and whether it is shown at all. Pure.
 */
import * as path from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { ASK_USER_TOOL_NAME } from '../../runtime/tools/control/ask-user';
import { TASK_FINISH_TOOL_NAME } from '../../runtime/tools/control/task-finish';

const KIND_BY_TOOL: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  file_info: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  find_files: 'search',
  search_files: 'search',
  bash: 'execute',
};

/** Tools that take one workspace file under `path`. */
const FILE_TOOLS = new Set(['read_file', 'file_info', 'write_file', 'edit_file']);

/** The longest title, in code points, before it is cut with `…`. */
const TITLE_LIMIT = 120;

/** `task_finish` and `ask_user` are the agent's words, not tool calls (docs/spec/acp.md §3). */
export function isShownAsToolCall(toolName: string): boolean {
  return toolName !== TASK_FINISH_TOOL_NAME && toolName !== ASK_USER_TOOL_NAME;
}

/** Built-in kinds by name; every other tool (MCP, todo_write) is `other`. */
export function toolKind(toolName: string): ToolKind {
  return KIND_BY_TOOL[toolName] ?? 'other';
}

function stringArgument(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length > TITLE_LIMIT ? `${points.slice(0, TITLE_LIMIT - 1).join('')}…` : flat;
}

/** `Read src/app.ts`, `Run npm test`, `Search "TODO"`, … — the arguments as the user would say them. */
export function toolTitle(toolName: string, args: Record<string, unknown>): string {
  const file = stringArgument(args, 'path');
  switch (toolName) {
    case 'read_file':
      return oneLine(`Read ${file ?? 'file'}`);
    case 'file_info':
      return oneLine(`Inspect ${file ?? 'file'}`);
    case 'write_file':
      return oneLine(`${args.append === true ? 'Append to' : 'Write'} ${file ?? 'file'}`);
    case 'edit_file':
      return oneLine(`Edit ${file ?? 'file'}`);
    case 'find_files':
      return oneLine(`Find ${stringArgument(args, 'glob') ?? 'files'}${file ? ` in ${file}` : ''}`);
    case 'search_files': {
      const pattern = stringArgument(args, 'pattern');
      return oneLine(pattern === undefined ? 'Search files' : `Search ${JSON.stringify(pattern)}`);
    }
    case 'bash':
      return oneLine(`Run ${stringArgument(args, 'command') ?? 'command'}`);
    case 'todo_write':
      return 'Update plan';
    default:
      return oneLine(toolName);
  }
}

/** The absolute path a file tool works on, resolved against the session's `cwd`. */
export function toolFilePath(
  toolName: string,
  args: Record<string, unknown>,
  cwd: string | null,
): string | null {
  if (!FILE_TOOLS.has(toolName)) return null;
  const file = stringArgument(args, 'path');
  if (file === undefined) return null;
  if (path.isAbsolute(file)) return path.normalize(file);
  return cwd === null ? null : path.resolve(cwd, file);
}

/** `locations` of a file tool (with `line` when it reads from a start line); none for other tools. */
export function toolLocations(
  toolName: string,
  args: Record<string, unknown>,
  cwd: string | null,
): ToolCallLocation[] | undefined {
  const file = toolFilePath(toolName, args, cwd);
  if (file === null) return undefined;
  const line = args.start_line;
  return [
    typeof line === 'number' && Number.isInteger(line) && line > 0 ? { path: file, line } : { path: file },
  ];
}
