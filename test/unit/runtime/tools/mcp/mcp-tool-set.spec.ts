/**
 * The MCP tools of a run (docs/spec/mcp.md §2) with real servers over stdio: the servers start at the run's
 * first refresh, a start failure is one warning, and a run cancelled during a slow start stops
 * waiting while closing the handle ends the start itself.
 */
import { join } from 'node:path';
import { McpServerHandle } from '../../../../../src/runtime/tools/mcp/mcp-tool-source';
import { McpToolSet } from '../../../../../src/runtime/tools/mcp/mcp-tool-set';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const SLOW = join(__dirname, '..', '..', '..', '..', 'fixtures', 'mcp', 'slow-start-server.mjs');

describe('McpToolSet', () => {
  jest.setTimeout(60_000);

  it('starts its servers at the first refresh and then offers their tools', async () => {
    const handle = new McpServerHandle('every', { command: process.execPath, args: [EVERYTHING, 'stdio'] });
    const set = new McpToolSet([handle], 'on-request');
    try {
      expect(set.tools()).toEqual([]);
      expect(handle.status).toBe('notStarted');
      expect(await set.refresh(new AbortController().signal)).toBe(true);
      expect(handle.status).toBe('ready');
      expect(set.tools().map((tool) => tool.name)).toContain('mcp__every__echo');
      expect(set.payloads.get('mcp__every__echo')).toEqual({ server: 'every', tool: 'echo' });
      expect(set.takeWarnings()).toEqual([]);
      // Later refreshes only re-read a list the server announced as changed.
      expect(await set.refresh(new AbortController().signal)).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it('a server that cannot start is one mcp_server_unavailable warning, and no tools', async () => {
    const handle = new McpServerHandle('bad', { command: '/nonexistent/mcp-server', startupTimeoutSec: 10 });
    const set = new McpToolSet([handle], 'on-request');
    expect(await set.refresh(new AbortController().signal)).toBe(false);
    expect(set.takeWarnings()).toEqual([
      { code: 'mcp_server_unavailable', message: expect.stringMatching(/^MCP server bad failed to start: /) },
    ]);
    expect(set.takeWarnings()).toEqual([]);
    expect(set.tools()).toEqual([]);
  });

  it('a cancelled run stops waiting for a slow start; closing the handle ends the start at once', async () => {
    const handle = new McpServerHandle('slow', {
      command: process.execPath,
      args: [SLOW, '60000'],
      startupTimeoutSec: 120,
    });
    const set = new McpToolSet([handle], 'on-request');
    const run = new AbortController();
    const refreshed = set.refresh(run.signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(handle.status).toBe('starting');
    run.abort();
    expect(await refreshed).toBe(false);
    expect(set.tools()).toEqual([]);

    const closing = Date.now();
    await handle.close();
    expect(Date.now() - closing).toBeLessThan(5_000);
    expect(handle.status).toBe('failed');
    expect(handle.error).toMatch(/startup cancelled/);
  });
});
