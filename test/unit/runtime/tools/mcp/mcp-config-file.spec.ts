import { parseMcpConfig } from '../../../../../src/runtime/tools/mcp/mcp-config-file';

describe('--mcp-config file (docs/spec/mcp.md §1)', () => {
  it('expands ${VAR} in env values, header values and args', () => {
    const text = JSON.stringify({
      mcpServers: {
        fs: { command: 'npx', args: ['${ROOT}/x'], env: { TOKEN: 'a${TOK}b' } },
        docs: { type: 'http', url: 'http://127.0.0.1/mcp', headers: { Authorization: 'Bearer ${TOK}' } },
      },
    });
    expect(parseMcpConfig(text, { ROOT: '/w', TOK: 't' })).toEqual({
      fs: { command: 'npx', args: ['/w/x'], env: { TOKEN: 'atb' } },
      docs: { type: 'http', url: 'http://127.0.0.1/mcp', headers: { Authorization: 'Bearer t' } },
    });
  });

  it('names a missing variable', () => {
    const text = JSON.stringify({ mcpServers: { fs: { command: 'x', args: ['${NOPE}'] } } });
    expect(() => parseMcpConfig(text, {})).toThrow('environment variable NOPE is not set');
  });

  it.each([
    ['not json', /JSON/],
    ['{}', 'expected an object with an "mcpServers" object'],
    ['{"mcpServers":{"bad name":{"command":"x"}}}', 'invalid server name "bad name"'],
    ['{"mcpServers":{"fs":{}}}', 'mcpServers.fs.command must be a non-empty string'],
    ['{"mcpServers":{"h":{"type":"http"}}}', 'mcpServers.h.url must be a string'],
  ])('rejects %s', (text, message) => {
    expect(() => parseMcpConfig(text, {})).toThrow(message);
  });
});
