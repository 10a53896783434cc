/**
 * docs/spec/mcp.md §1 "Thread" and §5: the `thread/start` `mcpServers` member (the common `mcpServers` shape,
 * no `${…}` expansion) and the `mcpServer/list` params. A map keyed by server name has no fixed
 * members for class-validator, so `mcpServers` is checked here and every problem reported under its
 * JSON Pointer (`/mcpServers/fs/command`), with the §3.0 texts.
 */
import type { ParamsIssue } from '../errors';
import { OptionalString, PARAM_TEXTS } from './param-rules';

const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const TRANSPORTS = ['stdio', 'http'] as const;
const APPROVALS = ['default', 'always', 'never'] as const;

export class McpServerListParamsDto {
  @OptionalString()
  threadId?: string;
}

type Check = (value: unknown) => string | null;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isString: Check = (value) => (typeof value === 'string' ? null : PARAM_TEXTS.string);
const nonBlank: Check = (value) =>
  typeof value !== 'string' ? PARAM_TEXTS.string : value.trim() === '' ? PARAM_TEXTS.notBlank : null;
const positiveNumber: Check = (value) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? null : 'must be a positive number';
const oneOf =
  (values: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value) ? null : PARAM_TEXTS.oneOf(values);

function pointer(...tokens: string[]): string {
  return tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** An array of strings (`args`, `enabledTools`): each bad element under its index. */
function stringArrayIssues(path: string, value: unknown): ParamsIssue[] {
  if (!Array.isArray(value)) return [{ path, message: PARAM_TEXTS.array }];
  return value.flatMap((element: unknown, index) =>
    typeof element === 'string' ? [] : [{ path: `${path}/${index}`, message: PARAM_TEXTS.string }],
  );
}

/** An object of string values (`env`, `headers`). */
function stringRecordIssues(path: string, value: unknown): ParamsIssue[] {
  if (!isPlainObject(value)) return [{ path, message: PARAM_TEXTS.object }];
  return Object.entries(value).flatMap(([key, member]) =>
    typeof member === 'string' ? [] : [{ path: `${path}${pointer(key)}`, message: PARAM_TEXTS.string }],
  );
}

const SCALAR_MEMBERS: Record<string, Check> = {
  type: oneOf(TRANSPORTS),
  cwd: isString,
  startupTimeoutSec: positiveNumber,
  toolTimeoutSec: positiveNumber,
  approval: oneOf(APPROVALS),
};
const STRING_ARRAYS = ['args', 'enabledTools', 'disabledTools'];
const STRING_RECORDS = ['env', 'headers'];

function serverIssues(base: string, server: unknown): ParamsIssue[] {
  if (!isPlainObject(server)) return [{ path: base, message: PARAM_TEXTS.object }];
  const issues: ParamsIssue[] = [];
  const required = server.type === 'http' ? 'url' : 'command';
  if (server[required] === undefined)
    issues.push({ path: `${base}/${required}`, message: PARAM_TEXTS.required });
  else {
    const message = nonBlank(server[required]);
    if (message !== null) issues.push({ path: `${base}/${required}`, message });
  }
  for (const [member, check] of Object.entries(SCALAR_MEMBERS)) {
    if (server[member] === undefined) continue;
    const message = check(server[member]);
    if (message !== null) issues.push({ path: `${base}/${member}`, message });
  }
  for (const member of STRING_ARRAYS)
    if (server[member] !== undefined) issues.push(...stringArrayIssues(`${base}/${member}`, server[member]));
  for (const member of STRING_RECORDS)
    if (server[member] !== undefined) issues.push(...stringRecordIssues(`${base}/${member}`, server[member]));
  return issues;
}

/** Every problem of a `thread/start` `mcpServers` value (an object, checked by the DTO). */
export function mcpServersIssues(servers: Record<string, unknown>): ParamsIssue[] {
  return Object.entries(servers).flatMap(([name, server]) => {
    const base = pointer('mcpServers', name);
    if (!SERVER_NAME.test(name))
      return [{ path: base, message: 'must be a server name matching ^[A-Za-z0-9_-]{1,32}$' }];
    return serverIssues(base, server);
  });
}
