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
    [
      '{"mcpServers":{"fs":{"command":"x","approval":"sometimes"}}}',
      'mcpServers.fs.approval must be "default", "always" or "never"',
    ],
    [
      '{"mcpServers":{"fs":{"command":"x","startupTimeoutSec":0}}}',
      'mcpServers.fs.startupTimeoutSec must be a positive number',
    ],
    [
      '{"mcpServers":{"fs":{"command":"x","toolTimeoutSec":"5"}}}',
      'mcpServers.fs.toolTimeoutSec must be a positive number',
    ],
    ['{"mcpServers":{"fs":{"command":"x","cwd":1}}}', 'mcpServers.fs.cwd must be a string'],
    ['{"mcpServers":{"fs":{"command":"x","args":"a"}}}', 'mcpServers.fs.args must be an array of strings'],
    [
      '{"mcpServers":{"fs":{"command":"x","enabledTools":[1]}}}',
      'mcpServers.fs.enabledTools must be an array of strings',
    ],
    [
      '{"mcpServers":{"fs":{"command":"x","disabledTools":{}}}}',
      'mcpServers.fs.disabledTools must be an array of strings',
    ],
    ['{"mcpServers":{"fs":{"command":"x","env":{"A":1}}}}', 'mcpServers.fs.env must be an object of strings'],
    [
      '{"mcpServers":{"h":{"type":"http","url":"http://h","headers":[]}}}',
      'mcpServers.h.headers must be an object of strings',
    ],
  ])('rejects %s', (text, message) => {
    expect(() => parseMcpConfig(text, {})).toThrow(message);
  });

  it('keeps a server named __proto__ as a server (not as the prototype of the result)', () => {
    const servers = parseMcpConfig('{"mcpServers":{"__proto__":{"command":"x"}}}', {});
    expect(Object.keys(servers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(servers)).toBe(Object.prototype);
  });
});
