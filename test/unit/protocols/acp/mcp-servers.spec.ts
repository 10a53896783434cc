import { threadMcpServers } from '../../../../src/protocols/acp/mcp-servers';

describe('session/new mcpServers → the thread MCP servers (docs/spec/acp.md §2, docs/spec/mcp.md §1)', () => {
  it('maps stdio and http servers; env and header arrays become objects', () => {
    expect(
      threadMcpServers([
        { name: 'fs', command: 'npx', args: ['-y', 'srv'], env: [{ name: 'DEBUG', value: '1' }] },
        {
          type: 'http',
          name: 'docs',
          url: 'http://127.0.0.1:9/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer t' }],
        },
      ]),
    ).toEqual({
      servers: {
        fs: { command: 'npx', args: ['-y', 'srv'], env: { DEBUG: '1' } },
        docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t' } },
      },
    });
    expect(threadMcpServers([])).toEqual({ servers: {} });
  });

  it('keeps a server named __proto__ as a server', () => {
    const result = threadMcpServers([{ name: '__proto__', command: 'x', args: [], env: [] }]);
    const servers = (result as { servers: Record<string, unknown> }).servers;
    expect(Object.keys(servers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(servers)).toBe(Object.prototype);
  });

  it.each<[Parameters<typeof threadMcpServers>[0], string]>([
    [
      [{ type: 'sse', name: 'old', url: 'http://x', headers: [] }],
      'mcpServers[0].type: sse servers are not supported',
    ],
    [
      [{ name: 'has space', command: 'x', args: [], env: [] }],
      'mcpServers[0].name: must match ^[A-Za-z0-9_-]{1,32}$',
    ],
    [
      [
        { name: 'a', command: 'x', args: [], env: [] },
        { name: 'a', command: 'y', args: [], env: [] },
      ],
      'mcpServers[1].name: duplicate server name a',
    ],
    [[{ name: 'a', command: ' ', args: [], env: [] }], 'mcpServers[0].command: must not be blank'],
  ])('refuses %j', (servers, invalid) => {
    expect(threadMcpServers(servers)).toEqual({ invalid });
  });
});
