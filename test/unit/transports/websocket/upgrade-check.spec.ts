import {
  checkUpgrade,
  offeredSubprotocols,
  selectSubprotocol,
  tokensEqual,
  type UpgradePolicy,
  type UpgradeRequest,
} from '../../../../src/transports/websocket/upgrade-check';
import { tokenFromContent } from '../../../../src/transports/websocket/token-file';
import {
  isLoopbackAddress,
  parseWebSocketListenAddress,
} from '../../../../src/transports/websocket/listen-address';

const TOKEN = 'secret-token-0123456789';
const policy = (overrides: Partial<UpgradePolicy> = {}): UpgradePolicy => ({
  token: TOKEN,
  allowedOrigins: new Set(['http://localhost:5173']),
  ...overrides,
});
const request = (overrides: Partial<UpgradeRequest> = {}): UpgradeRequest => ({
  url: '/',
  origin: undefined,
  authorization: `Bearer ${TOKEN}`,
  protocols: [],
  ...overrides,
});
const NOT_FOUND = { kind: 'reject', status: 404, body: { error: 'not found' } };
const FORBIDDEN = { kind: 'reject', status: 403, body: { error: 'origin not allowed' } };
const UNAUTHORIZED = { kind: 'reject', status: 401, body: { error: 'unauthorized' } };
const ACCEPT = { kind: 'accept' };

describe('checkUpgrade (docs/spec/websocket.md §2)', () => {
  it.each<[string, Partial<UpgradeRequest>, Partial<UpgradePolicy>, object]>([
    ['Bearer header', {}, {}, ACCEPT],
    ['bearer scheme is case-insensitive', { authorization: `bearer ${TOKEN}` }, {}, ACCEPT],
    [
      'token subprotocol',
      { authorization: undefined, protocols: ['vv-agent-app-server.v1', `vv-agent-token.${TOKEN}`] },
      {},
      ACCEPT,
    ],
    ['a query string on /', { url: '/?x=1' }, {}, ACCEPT],
    ['missing token', { authorization: undefined }, {}, UNAUTHORIZED],
    ['wrong token', { authorization: 'Bearer nope-nope-nope-nope' }, {}, UNAUTHORIZED],
    ['token prefix only', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, {}, UNAUTHORIZED],
    [
      'wrong token subprotocol',
      { authorization: undefined, protocols: ['vv-agent-token.other-token-000000'] },
      {},
      UNAUTHORIZED,
    ],
    ['other auth scheme', { authorization: `Basic ${TOKEN}` }, {}, UNAUTHORIZED],
    ['no auth needed', { authorization: undefined }, { token: null }, ACCEPT],
    ['allowed origin', { origin: 'http://localhost:5173' }, {}, ACCEPT],
    ['origin not allowed', { origin: 'http://evil.example' }, {}, FORBIDDEN],
    ['origin is an exact match', { origin: 'http://localhost:5173/' }, {}, FORBIDDEN],
    ['origin before token', { origin: 'http://evil.example', authorization: undefined }, {}, FORBIDDEN],
    ['origin checked without auth too', { origin: 'http://evil.example' }, { token: null }, FORBIDDEN],
    ['path first', { url: '/ws', origin: 'http://evil.example', authorization: undefined }, {}, NOT_FOUND],
    ['path /healthz is not an upgrade target', { url: '/healthz' }, {}, NOT_FOUND],
  ])('%s', (_name, req, pol, verdict) => {
    expect(checkUpgrade(request(req), policy(pol))).toEqual(verdict);
  });
});

describe('subprotocols and token comparison', () => {
  it('selects vv-agent-app-server.v1 when offered, never the token entry', () => {
    expect(selectSubprotocol(new Set(['vv-agent-token.x', 'vv-agent-app-server.v1']))).toBe(
      'vv-agent-app-server.v1',
    );
    expect(selectSubprotocol(new Set(['vv-agent-token.x']))).toBe(false);
  });

  it('splits the Sec-WebSocket-Protocol header', () => {
    expect(offeredSubprotocols('a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(offeredSubprotocols(['a', 'b,c'])).toEqual(['a', 'b', 'c']);
    expect(offeredSubprotocols(undefined)).toEqual([]);
  });

  it('compares tokens exactly, whatever their lengths', () => {
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(tokensEqual(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokensEqual('', TOKEN)).toBe(false);
  });
});

describe('token file content (docs/spec/websocket.md §1)', () => {
  it.each<[string, object]>([
    [`  ${TOKEN}\n`, { token: TOKEN }],
    ['a'.repeat(16), { token: 'a'.repeat(16) }],
    ['A-z0.9_~'.repeat(64), { token: 'A-z0.9_~'.repeat(64) }],
    ['a'.repeat(15), { error: 'token must be 16-512 characters' }],
    ['a'.repeat(513), { error: 'token must be 16-512 characters' }],
    ['', { error: 'token must be 16-512 characters' }],
    ['abcdefgh ijklmnop', { error: 'token may only contain A-Z a-z 0-9 . _ ~ -' }],
    ['abcdefghijklmnop/', { error: 'token may only contain A-Z a-z 0-9 . _ ~ -' }],
  ])('%j', (content, expected) => {
    expect(tokenFromContent(content)).toEqual(expected);
  });
});

describe('listen address loopback rule', () => {
  it.each<[string, boolean]>([
    ['ws://127.0.0.1:0', true],
    ['ws://127.255.0.9:0', true],
    ['ws://localhost:0', true],
    ['ws://[::1]:0', true],
    ['ws://0.0.0.0:0', false],
    ['ws://10.0.0.1:0', false],
    ['ws://[::]:0', false],
    ['ws://[::ffff:127.0.0.1]:0', false],
  ])('%s → %s', (raw, loopback) => {
    const address = parseWebSocketListenAddress(raw);
    expect(address).not.toBeNull();
    expect(isLoopbackAddress(address!)).toBe(loopback);
  });
});
