import { mcpServersIssues } from '../../../../../src/protocols/app-server-v1/dto/mcp-servers.params';

describe('mcpServersIssues (docs/spec/mcp.md §1 thread/start)', () => {
  it('accepts the common mcpServers shape', () => {
    expect(
      mcpServersIssues({
        fs: { command: 'npx', args: ['a'], env: { A: '1' }, cwd: '/w', toolTimeoutSec: 5, approval: 'never' },
        docs: { type: 'http', url: 'https://x/mcp', headers: { A: 'b' }, enabledTools: ['t'] },
      }),
    ).toEqual([]);
  });

  it('reports each problem under its member path', () => {
    expect(
      mcpServersIssues({
        fs: { command: ' ', args: ['a', 2], startupTimeoutSec: 0, approval: 'ask', disabledTools: 'x' },
        'a/b': {},
        web: 7,
        http: { type: 'sse', env: [] },
      }),
    ).toEqual([
      { path: '/mcpServers/fs/command', message: 'must not be blank' },
      { path: '/mcpServers/fs/startupTimeoutSec', message: 'must be a positive number' },
      { path: '/mcpServers/fs/approval', message: 'must be one of: default, always, never' },
      { path: '/mcpServers/fs/args/1', message: 'must be a string' },
      { path: '/mcpServers/fs/disabledTools', message: 'must be an array' },
      { path: '/mcpServers/a~1b', message: 'must be a server name matching ^[A-Za-z0-9_-]{1,32}$' },
      { path: '/mcpServers/web', message: 'must be an object' },
      { path: '/mcpServers/http/command', message: 'is required' },
      { path: '/mcpServers/http/type', message: 'must be one of: stdio, http' },
      { path: '/mcpServers/http/env', message: 'must be an object' },
    ]);
  });
});
