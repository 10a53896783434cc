/**
 * The `--mcp-config` file (docs/spec/mcp.md §1): the common `{"mcpServers": {...}}` shape, `${NAME}`
 * expanded in `env` values, `headers` values and `args` from the process environment. Errors
 * carry the cause only; the CLI prefixes `--mcp-config: `.
 */
import type { McpServerConfig } from './server-config';

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
    servers[name] = expandServer(server as Record<string, unknown>, env) as unknown as McpServerConfig;
  }
  return servers;
}
