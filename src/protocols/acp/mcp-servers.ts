/**
 * `session/new`'s `mcpServers` as the thread's MCP servers (docs/spec/acp.md §2, docs/spec/mcp.md §1 source 3): ACP's
 * `env` / `headers` arrays of `{name, value}` become objects; `sse` servers are refused (not
 * advertised), as are names the thread configuration cannot hold. Pure.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { setOwnProperty } from '../../runtime/own-property';

/** docs/spec/mcp.md §1: the names a thread's server set accepts. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

export type ThreadMcpServers = { servers: Record<string, unknown> } | { invalid: string };

function pairs(entries: readonly { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [entry.name, entry.value]));
}

export function threadMcpServers(servers: readonly McpServer[]): ThreadMcpServers {
  const result: Record<string, unknown> = {};
  for (const [index, server] of servers.entries()) {
    const member = `mcpServers[${index}]`;
    if (!SERVER_NAME.test(server.name))
      return { invalid: `${member}.name: must match ${SERVER_NAME.source}` };
    if (Object.prototype.hasOwnProperty.call(result, server.name))
      return { invalid: `${member}.name: duplicate server name ${server.name}` };
    if ('type' in server && server.type === 'sse')
      return { invalid: `${member}.type: sse servers are not supported` };
    if ('type' in server && server.type === 'http') {
      if (server.url.trim() === '') return { invalid: `${member}.url: must not be blank` };
      setOwnProperty(result, server.name, { type: 'http', url: server.url, headers: pairs(server.headers) });
      continue;
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    if (stdio.command.trim() === '') return { invalid: `${member}.command: must not be blank` };
    // Defined, not assigned: a server named `__proto__` (the name rule allows it) stays a server.
    setOwnProperty(result, server.name, {
      command: stdio.command,
      args: [...stdio.args],
      env: pairs(stdio.env),
    });
  }
  return { servers: result };
}
