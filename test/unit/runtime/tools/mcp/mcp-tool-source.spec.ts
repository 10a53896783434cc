/** Real server-everything over stdio through the SDK: start, list, call, env allow-list, close. */
import {
  McpServerHandle,
  mcpToolDefinitions,
  startMcpServers,
} from '../../../../../src/runtime/tools/mcp/mcp-tool-source';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

function context(signal: AbortSignal) {
  return {
    runId: 'r',
    agentName: 'a',
    toolCallId: 'c',
    toolName: 't',
    workspace: process.cwd(),
    metadata: {},
    sharedState: {},
    signal,
  };
}

describe('MCP tool source with server-everything (stdio)', () => {
  jest.setTimeout(60_000);

  it('starts lazily, exposes mcp__ tools with payload metadata and calls echo', async () => {
    const handle = new McpServerHandle('every', { command: process.execPath, args: [EVERYTHING, 'stdio'] });
    expect(handle.status).toBe('notStarted');
    try {
      expect(await startMcpServers([handle])).toEqual([]);
      expect(handle.status).toBe('ready');
      const tools = mcpToolDefinitions([handle], 'on-request');
      const echo = tools.find((tool) => tool.name === 'mcp__every__echo');
      expect(echo?.metadata).toEqual({ mcp: { server: 'every', tool: 'echo' } });
      const output = await echo!.handler(context(new AbortController().signal), { message: 'hi' });
      expect(output).toEqual({ type: 'text', text: expect.stringContaining('hi') });
    } finally {
      await handle.close();
    }
  });

  it('reports a bad command as a start failure, never a throw', async () => {
    const handle = new McpServerHandle('bad', { command: '/nonexistent/mcp-server', startupTimeoutSec: 10 });
    const failures = await startMcpServers([handle]);
    expect(failures).toHaveLength(1);
    expect(failures[0].message).toMatch(/^MCP server bad failed to start: /);
    expect(handle.status).toBe('failed');
  });
});
