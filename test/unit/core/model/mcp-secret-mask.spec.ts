import { maskMcpServers } from '../../../../src/core/model/mcp-secret-mask';

describe('maskMcpServers (docs/spec/mcp.md §1)', () => {
  it('replaces every env and headers value with "***" and keeps everything else', () => {
    const servers = {
      fs: { command: 'npx', args: ['-y', 'fs'], env: { TOKEN: 'abc', DEBUG: '0' }, cwd: '/w' },
      docs: { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer t' } },
    };
    expect(maskMcpServers(servers)).toEqual({
      fs: { command: 'npx', args: ['-y', 'fs'], env: { TOKEN: '***', DEBUG: '***' }, cwd: '/w' },
      docs: { type: 'http', url: 'https://x/mcp', headers: { Authorization: '***' } },
    });
    expect(servers.fs.env.TOKEN).toBe('abc');
  });
});
