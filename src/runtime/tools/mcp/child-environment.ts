/**
 * The environment of a stdio MCP server (docs/spec/mcp.md §2): the SDK's default variables plus LANG and
 * TMPDIR and the server's own `env` — never the App Server's full environment, so API keys from
 * the settings stay out of MCP children, and nothing of our own either (no process-tree marker).
 */
const EXTRA_INHERITED = ['LOGNAME', 'USER', 'LANG', 'TMPDIR'];

export function mcpChildEnvironment(
  /** The SDK's `getDefaultEnvironment()`. */
  defaults: Record<string, string>,
  serverEnv: Record<string, string> | undefined,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = { ...defaults };
  for (const key of EXTRA_INHERITED) {
    const value = parent[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...(serverEnv ?? {}) };
}
