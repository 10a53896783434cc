/**
 * The WebSocket strategy against a small echo host (no Nest, no store): keep-alive pings close a
 * peer that stopped answering with `1011`, the outbound bound closes a stalled reader with `4001`
 * without ever making the producer wait, and a stop closes every socket `1001`. Real `ws` clients
 * on 127.0.0.1.
 */
import WebSocket from 'ws';
import { Connection } from '../../../../src/rpc/connection';
import type { MessageSink } from '../../../../src/rpc/message-sink';
import type { TransportHost } from '../../../../src/rpc/transport-host';
import { WebSocketJsonRpcServer } from '../../../../src/transports/websocket/websocket.server';
import { parseWebSocketListenAddress } from '../../../../src/transports/websocket/listen-address';

class EchoHost implements TransportHost {
  readonly maxMessageBytes = 1024 * 1024;
  readonly connections: Connection[] = [];
  shutdowns = 0;

  connect(sink: MessageSink): Connection {
    const connection = new Connection(`c${this.connections.length + 1}`, sink);
    this.connections.push(connection);
    return connection;
  }

  receiveLine(connection: Connection, line: Buffer | string): void {
    void connection.send(JSON.parse(line.toString()));
  }

  rejectOversizedLine(): void {}

  async shutdown(): Promise<void> {
    this.shutdowns += 1;
  }
}

const noSignals = { on: () => undefined, off: () => undefined };
let server: WebSocketJsonRpcServer;
let host: EchoHost;
const stderr: string[] = [];

async function start(
  options: { pingIntervalMs?: number; outboundQueueBytes?: number } = {},
): Promise<string> {
  host = new EchoHost();
  server = new WebSocketJsonRpcServer({
    address: parseWebSocketListenAddress('ws://127.0.0.1:0')!,
    loadToken: () => null,
    allowedOrigins: [],
    signals: noSignals,
    stderr: { write: (text: string) => stderr.push(text) },
    ...options,
  });
  server.attach(host);
  await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
  return `ws://127.0.0.1:${server.port}`;
}

function open(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

const closeOf = (socket: WebSocket): Promise<{ code: number; reason: string }> =>
  new Promise((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

afterEach(() => server.close());

describe('WebSocketJsonRpcServer', () => {
  it('announces the real port and echoes one message per text frame', async () => {
    const url = await start();
    expect(stderr.at(-1)).toBe(`vv-agent app-server listening on ${url}\n`);
    const socket = await open(url);
    const reply = new Promise<string>((resolve) =>
      socket.once('message', (data) => resolve(data.toString())),
    );
    socket.send('{"a":1}');
    expect(await reply).toBe('{"a":1}');
    socket.close();
  });

  it('closes a peer that left two pings unanswered with 1011', async () => {
    const url = await start({ pingIntervalMs: 50 });
    const socket = await open(url);
    const closed = closeOf(socket);
    // A paused socket never reads the pings, so it never answers them.
    socket.pause();
    // Three ping rounds: two pings go unanswered, the third round closes it.
    while (!host.connections[0].isClosed) await new Promise((resolve) => setTimeout(resolve, 20));
    socket.resume();
    expect((await closed).code).toBe(1011);
  });

  it('keeps a peer that answers pings', async () => {
    const url = await start({ pingIntervalMs: 100 });
    const socket = await open(url);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(host.connections[0].isClosed).toBe(false);
    socket.close();
  });

  it('a stalled reader is closed 4001 "outbound queue overflow"; the producer never waits', async () => {
    const url = await start({ outboundQueueBytes: 64 * 1024 });
    const socket = await open(url);
    const closed = closeOf(socket);
    socket.pause();
    const connection = host.connections[0];
    const payload = { text: 'y'.repeat(16 * 1024) };
    // Every send resolves at once (admitted), although nobody reads: 32 MB offered in total.
    for (let i = 0; i < 2_000; i += 1) await connection.send(payload);
    await new Promise((resolve) => setImmediate(resolve));
    expect(connection.isClosed).toBe(true);
    socket.resume();
    expect(await closed).toEqual({ code: 4001, reason: 'outbound queue overflow' });
  });

  it('a single message larger than the bound is delivered', async () => {
    const url = await start({ outboundQueueBytes: 1024 });
    const socket = await open(url);
    const received: string[] = [];
    socket.on('message', (data) => received.push(data.toString()));
    const big = { text: 'z'.repeat(200_000) };
    void host.connections[0].send(big);
    void host.connections[0].send({ after: true });
    for (const deadline = Date.now() + 5_000; received.length < 2 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.map((text) => JSON.parse(text) as unknown)).toEqual([big, { after: true }]);
    socket.close();
  });

  it('stop(): the host shuts down, then every socket is closed 1001', async () => {
    const url = await start();
    const sockets = await Promise.all([open(url), open(url)]);
    const closes = sockets.map(closeOf);
    const stopped = server.stop();
    await stopped;
    expect(host.shutdowns).toBe(1);
    expect(await Promise.all(closes)).toEqual([
      { code: 1001, reason: 'server shutting down' },
      { code: 1001, reason: 'server shutting down' },
    ]);
    expect(await server.whenStopped()).toBe(0);
  });
});
