/**
 * docs/spec/mcp.md §1: every message that carries a thread shows its thread-level `mcpServers` with each
 * `env` and `headers` VALUE replaced by `"***"` (tokens live there); keys stay visible.
 */
const SECRET_MEMBERS = ['env', 'headers'];
const MASK = '***';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function maskServer(server: unknown): unknown {
  if (!isPlainObject(server)) return server;
  const masked: Record<string, unknown> = { ...server };
  for (const member of SECRET_MEMBERS) {
    const values = server[member];
    if (isPlainObject(values))
      masked[member] = Object.fromEntries(Object.keys(values).map((key) => [key, MASK]));
  }
  return masked;
}

export function maskMcpServers(servers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, maskServer(server)]));
}
