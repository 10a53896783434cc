/** Model-visible names of MCP tools (docs/spec/mcp.md §3): `mcp__<server>__<tool>`, at most 64 characters. */
import { createHash } from 'node:crypto';

const MAX_NAME_LENGTH = 64;
const CUT_LENGTH = 55;

function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The hash form: the sanitized name cut to 55 characters, `_` and 8 hex chars of its SHA-256. */
function hashed(sanitized: string): string {
  const digest = createHash('sha256').update(sanitized, 'utf8').digest('hex').slice(0, 8);
  return `${sanitized.slice(0, CUT_LENGTH)}_${digest}`;
}

export function exposedToolName(server: string, tool: string): string {
  const sanitized = sanitize(`mcp__${server}__${tool}`);
  return sanitized.length > MAX_NAME_LENGTH ? hashed(sanitized) : sanitized;
}

/**
 * Exposed names for one server's tools in list order; when two tools map to one name the later
 * one gets the hash form (so the first keeps the readable name).
 */
export function exposedToolNames(server: string, tools: readonly string[], taken: Set<string>): string[] {
  return tools.map((tool) => {
    let name = exposedToolName(server, tool);
    if (taken.has(name)) name = hashed(sanitize(`mcp__${server}__${tool}`));
    taken.add(name);
    return name;
  });
}
