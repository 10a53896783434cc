/**
 * The WebSocket listener end to end (docs/spec/websocket.md §1–§3): startup options and exit codes, the
 * readiness line, the HTTP surface (health, readiness, 404 / 403 / 401 in that order), both token
 * forms, subprotocol selection and the framing rules. The built CLI on 127.0.0.1 port 0, real `ws`
 * clients, real HTTP requests. Build first (`npm run build`).
 */
import { createServer, type Server } from 'node:net';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2eSandbox } from '../helpers/app-server-session';
import { finishReply } from '../helpers/model-replies';
import { TEST_TOKEN, UpgradeRefused, WsPeer, WsServerProcess } from '../helpers/websocket-server';
import { USAGE_LINE } from '../../src/cli/command-help';

jest.setTimeout(45_000);

let sandbox: E2eSandbox;
const servers: WsServerProcess[] = [];

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-ws-listener-e2e-');
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  await sandbox.dispose();
});

async function start(options: Parameters<typeof WsServerProcess.start>[1] = {}): Promise<WsServerProcess> {
  const server = WsServerProcess.spawn(sandbox, options);
  servers.push(server);
  await server.ready();
  return server;
}

/** Runs the CLI to completion (a usage or startup error). */
function runCli(
  listen: string[],
  extra: string[] = [],
): { status: number | null; stderr: string; stdout: string } {
  const { args, cwd, env } = sandbox.serverCommand({ args: extra }, listen);
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

async function refusal(
  url: string,
  options: Parameters<typeof WsPeer.connect>[1] = {},
): Promise<UpgradeRefused> {
  const outcome = await WsPeer.connect(url, options).then(
    async (peer) => {
      await peer.close();
      throw new Error('upgrade unexpectedly accepted');
    },
    (error: unknown) => error,
  );
  if (!(outcome instanceof UpgradeRefused)) throw outcome;
  return outcome;
}

describe('startup (docs/spec/websocket.md §1)', () => {
  it('writes one readiness line with the real port to stderr; stdout stays empty', async () => {
    const server = await start({ token: TEST_TOKEN });
    expect(server.port).toBeGreaterThan(0);
    expect(server.stderr).toContain(`vv-agent app-server listening on ws://127.0.0.1:${server.port}\n`);
    expect(server.stderr.match(/listening on/g)).toHaveLength(1);
    const peer = await WsPeer.connect(server.url, { token: TEST_TOKEN });
    await peer.initialize();
    await peer.close();
    expect(server.stdoutText).toBe('');
    expect(server.stderr).not.toContain(TEST_TOKEN);
  });

  it.each([
    [['ws://0.0.0.0:0', '--ws-no-auth'], '--ws-no-auth is only allowed on a loopback address'],
    [['ws://127.0.0.1:0'], '--listen ws:// requires --ws-token-file (or --ws-no-auth on a loopback address)'],
    [['ws://127.0.0.1'], 'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT'],
    [['stdio', '--ws-allow-origin', 'http://x'], '--ws-* options require --listen ws://HOST:PORT'],
  ])('%j → exit 2 %s', (listen, message) => {
    const result = runCli(listen);
    expect(result).toEqual({ status: 2, stderr: `${message}\n${USAGE_LINE}\n`, stdout: '' });
  });

  it('a missing or invalid token file → exit 2 "--ws-token-file: <cause>"', () => {
    const missing = runCli(['ws://127.0.0.1:0', '--ws-token-file', join(sandbox.root, 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^--ws-token-file: .*nope.*\n$/);
    const short = join(sandbox.root, 'short-token');
    writeFileSync(short, 'too-short\n');
    const invalid = runCli(['ws://127.0.0.1:0', '--ws-token-file', short]);
    expect(invalid).toEqual({
      status: 2,
      stderr: '--ws-token-file: token must be 16-512 characters\n',
      stdout: '',
    });
  });

  it('a port in use → exit 1 "failed to listen on ws://HOST:PORT: <cause>"', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = runCli([`ws://127.0.0.1:${port}`, '--ws-no-auth']);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`^failed to listen on ws://127\\.0\\.0\\.1:${port}: .*EADDRINUSE.*\\n$`),
      );
    } finally {
      blocker.close();
    }
  });
});

describe('HTTP surface and auth (docs/spec/websocket.md §2)', () => {
  it('/healthz, /readyz and 404 for anything else, without auth', async () => {
    const server = await start({ token: TEST_TOKEN });
    const health = await fetch(`${server.httpBase}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${server.httpBase}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    for (const path of ['/', '/other', '/healthz/x'])
      expect((await fetch(`${server.httpBase}${path}`)).status).toBe(404);
    expect((await fetch(`${server.httpBase}/healthz`, { method: 'POST' })).status).toBe(404);
  });

  it('checks path (404), then origin (403), then token (401); wrong and missing tokens look the same', async () => {
    const server = await start({ token: TEST_TOKEN, args: ['--ws-allow-origin', 'http://localhost:5173'] });
    const base = server.url;
    const evil = { headers: { origin: 'http://evil.example' } };
    expect(await refusal(`${base}/threads`, evil)).toMatchObject({ status: 404 });
    const forbidden = await refusal(base, { ...evil, token: TEST_TOKEN });
    expect([forbidden.status, JSON.parse(forbidden.body)]).toEqual([403, { error: 'origin not allowed' }]);
    const missing = await refusal(base);
    const wrong = await refusal(base, { token: 'wrong-token-0123456789' });
    const wrongHeader = await refusal(base, { token: 'wrong-token-0123456789', tokenVia: 'header' });
    for (const refused of [missing, wrong, wrongHeader]) {
      expect([refused.status, JSON.parse(refused.body)]).toEqual([401, { error: 'unauthorized' }]);
    }
    expect(server.stderr).not.toContain('wrong-token');
    expect(server.stderr).not.toContain(TEST_TOKEN);
  });

  it('accepts the Bearer header and the vv-agent-token subprotocol; selects vv-agent-app-server.v1 only', async () => {
    sandbox.model.enqueue(finishReply('ok'));
    const server = await start({ token: TEST_TOKEN, args: ['--ws-allow-origin', 'http://localhost:5173'] });
    const viaHeader = await WsPeer.connect(server.url, { token: TEST_TOKEN, tokenVia: 'header' });
    expect(viaHeader.socket.protocol).toBe('');
    await viaHeader.initialize();
    const viaProtocol = await WsPeer.connect(server.url, {
      token: TEST_TOKEN,
      protocols: ['vv-agent-app-server.v1'],
      headers: { origin: 'http://localhost:5173' },
    });
    expect(viaProtocol.socket.protocol).toBe('vv-agent-app-server.v1');
    await viaProtocol.initialize();
    const models = await viaProtocol.call<{ models: unknown[] }>('model/list', {});
    expect(models.models).toHaveLength(1);
    await viaHeader.close();
    await viaProtocol.close();
  });

  it('--ws-no-auth on a loopback address accepts connections without a token', async () => {
    const server = await start();
    // No Authorization header, no subprotocol entry: the upgrade must be accepted, not refused with 401.
    const outcome = await WsPeer.connect(server.url).catch((error: unknown) => error);
    expect(
      outcome instanceof UpgradeRefused ? { refused: outcome.status, body: outcome.body } : 'accepted',
    ).toBe('accepted');
    const peer = outcome as WsPeer;
    expect(peer.socket.protocol).toBe('');
    // …and the tokenless connection is served like an authenticated one.
    expect(
      await peer.call('initialize', { clientInfo: { name: 'no-auth', version: '0.0.0' } }),
    ).toMatchObject({
      userAgent: 'vv-agent-app-server',
      protocolVersion: 'v1',
    });
    peer.send({ jsonrpc: '2.0', method: 'initialized' });
    expect((await peer.call<{ models: unknown[] }>('model/list', {})).models).toHaveLength(1);
    await peer.close();
  });
});

describe('framing (docs/spec/websocket.md §3)', () => {
  it('bad frames get the stdio answers and the connection keeps serving', async () => {
    const server = await start();
    const peer = await WsPeer.connect(server.url);
    peer.socket.send('{not json');
    expect(await peer.next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    peer.socket.send('{"jsonrpc":"2.0","id":7}');
    expect(await peer.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    peer.socket.send('   ');
    peer.socket.send('{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"clientInfo":{"name":"x"}}}\n');
    const answer = await peer.next();
    expect(answer).toMatchObject({ id: 8, result: { protocolVersion: expect.any(String) } });
    // Another connection is unaffected by this one's bad input.
    const other = await WsPeer.connect(server.url);
    await other.initialize();
    await other.close();
    await peer.close();
  });

  it.each([
    ['a binary frame', 1003, (peer: WsPeer) => peer.socket.send(Buffer.from('{}'), { binary: true })],
    [
      'invalid UTF-8 in a text frame',
      1007,
      (peer: WsPeer) => peer.socket.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: false }),
    ],
    ['a frame over --max-message-bytes', 1009, (peer: WsPeer) => peer.socket.send('x'.repeat(2048))],
  ])('%s closes the connection with %d', async (_name, code, misbehave) => {
    const server = await start({ args: ['--max-message-bytes', '1024'] });
    const peer = await WsPeer.connect(server.url);
    await peer.initialize();
    misbehave(peer);
    expect((await peer.closedWithin()).code).toBe(code);
    // The server keeps serving other connections.
    const other = await WsPeer.connect(server.url);
    await other.initialize();
    await other.close();
  });

  it('a fragmented message is reassembled before the size limit applies', async () => {
    const server = await start({ args: ['--max-message-bytes', '200'] });
    const peer = await WsPeer.connect(server.url);
    const message =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"fragmented"}}}';
    peer.socket.send(message.slice(0, 30), { fin: false });
    peer.socket.send(message.slice(30), { fin: true });
    expect(await peer.next()).toMatchObject({ id: 1, result: { protocolVersion: expect.any(String) } });
    peer.socket.send(`{"jsonrpc":"2.0","method":"x","params":"${'y'.repeat(120)}`, { fin: false });
    peer.socket.send(`${'y'.repeat(120)}"}`, { fin: true });
    expect((await peer.closedWithin()).code).toBe(1009);
  });
});
