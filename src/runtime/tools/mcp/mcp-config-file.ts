/**
 * The `--mcp-config` file (docs/spec/mcp.md §1): the common `{"mcpServers": {...}}` shape, `${NAME}`
 * expanded in `env` values, `headers` values and `args` from the process environment. Errors
 * carry the cause only; the CLI prefixes `--mcp-config: `.
 */
import { setOwnProperty } from '../../own-property';
import type { McpApproval, McpServerConfig } from './server-config';

const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export class McpConfigError extends Error {}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function expand(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(VARIABLE, (_, name: string) => {
    const replacement = env[name];
    if (replacement === undefined) throw new McpConfigError(`environment variable ${name} is not set`);
    return replacement;
  });
}

function expandRecord(record: unknown, env: NodeJS.ProcessEnv): unknown {
  if (!isPlainObject(record)) return record;
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      typeof value === 'string' ? expand(value, env) : value,
    ]),
  );
}

function expandServer(server: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const expanded: Record<string, unknown> = { ...server };
  if (server.env !== undefined) expanded.env = expandRecord(server.env, env);
  if (server.headers !== undefined) expanded.headers = expandRecord(server.headers, env);
  if (Array.isArray(server.args)) {
    expanded.args = server.args.map((arg: unknown) => (typeof arg === 'string' ? expand(arg, env) : arg));
  }
  return expanded;
}

const APPROVALS: readonly McpApproval[] = ['default', 'always', 'never'];

const isString = (value: unknown): boolean => typeof value === 'string';
const isPositiveNumber = (value: unknown): boolean =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;
const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every(isString);
const isStringRecord = (value: unknown): boolean =>
  isPlainObject(value) && Object.values(value).every(isString);

/**
 * The optional members of §1 and what each must be. A member that is present with any other value
 * makes the file invalid (exit 2), the same as a missing `command`: the server would otherwise run
 * with a default the user did not ask for (`"approval": "sometimes"` silently meaning `default`).
 */
const OPTIONAL_MEMBERS: ReadonlyArray<[string, (value: unknown) => boolean, string]> = [
  [
    'approval',
    (value) => APPROVALS.some((approval) => approval === value),
    'must be "default", "always" or "never"',
  ],
  ['startupTimeoutSec', isPositiveNumber, 'must be a positive number'],
  ['toolTimeoutSec', isPositiveNumber, 'must be a positive number'],
  ['enabledTools', isStringArray, 'must be an array of strings'],
  ['disabledTools', isStringArray, 'must be an array of strings'],
  ['args', isStringArray, 'must be an array of strings'],
  ['cwd', isString, 'must be a string'],
  ['env', isStringRecord, 'must be an object of strings'],
  ['headers', isStringRecord, 'must be an object of strings'],
];

function checkServer(name: string, server: unknown): void {
  if (!SERVER_NAME.test(name)) throw new McpConfigError(`invalid server name ${JSON.stringify(name)}`);
  if (!isPlainObject(server)) throw new McpConfigError(`mcpServers.${name} must be an object`);
  if (server.type === 'http') {
    if (typeof server.url !== 'string') throw new McpConfigError(`mcpServers.${name}.url must be a string`);
  } else if (server.type !== undefined && server.type !== 'stdio') {
    throw new McpConfigError(`mcpServers.${name}.type must be "stdio" or "http"`);
  } else if (typeof server.command !== 'string' || server.command === '') {
    throw new McpConfigError(`mcpServers.${name}.command must be a non-empty string`);
  }
  for (const [member, valid, requirement] of OPTIONAL_MEMBERS) {
    if (server[member] !== undefined && !valid(server[member])) {
      throw new McpConfigError(`mcpServers.${name}.${member} ${requirement}`);
    }
  }
}

/** Parses the file text; throws McpConfigError with the cause. */
export function parseMcpConfig(text: string, env: NodeJS.ProcessEnv): Record<string, McpServerConfig> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(error instanceof Error ? error.message : String(error));
  }
  if (!isPlainObject(document) || !isPlainObject(document.mcpServers)) {
    throw new McpConfigError('expected an object with an "mcpServers" object');
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(document.mcpServers)) {
    checkServer(name, server);
    // Defined, not assigned: a server named `__proto__` (the name rule allows it) stays a server.
    setOwnProperty(servers, name, expandServer(server as Record<string, unknown>, env));
  }
  return servers;
}
