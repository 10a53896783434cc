/**
 * The WebSocket transport (websocket.md) as a Nest custom transport strategy, the sibling of the
 * stdio one: an HTTP listener with `/healthz`, `/readyz` and the checked upgrade on `/`; each
 * WebSocket is one connection of the core, one JSON-RPC message per text frame. The `ws` package
 * does the RFC 6455 work (UTF-8 validation → 1007, `maxPayload` → 1009, ping/pong, close
 * handshakes); this file only decides.
 *
 * A turn never waits for a socket: the sink accepts every message at once, and a socket whose
 * unwritten bytes exceed the outbound bound is closed `4001` (the client resumes with
 * `afterItemId`). Closing a socket only disconnects its connection; SIGTERM / SIGINT run the core's
 * shutdown and close every socket `1001`.
 */
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Connection } from '../../rpc/connection';
import type { MessageSink } from '../../rpc/message-sink';
import type { TransportHost } from '../../rpc/transport-host';
import type { InspectorHttp } from './inspector';
import type { WebSocketListenAddress } from './listen-address';
import { checkUpgrade, offeredSubprotocols, selectSubprotocol, type UpgradePolicy } from './upgrade-check';
import { CLOSE_CODES, DEFAULT_OUTBOUND_QUEUE_BYTES, DEFAULT_PING_INTERVAL_MS } from './websocket-limits';

export const WEBSOCKET_TRANSPORT = Symbol('WEBSOCKET');

/** A startup problem with the exit code it stands for (token file: 2, bind failure: 1). */
export class WebSocketStartupError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** Where SIGTERM / SIGINT come from (the process; a fake in tests). */
export interface ShutdownSignals {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

export interface WebSocketServerConfig {
  address: WebSocketListenAddress;
  /** Called once, after the store opened and before binding; null = no auth. May throw WebSocketStartupError. */
  loadToken: () => string | null;
  allowedOrigins: readonly string[];
  /** `--inspector` (docs/spec/inspector.md §1): serves the page and admits its origin; absent → 404 as before. */
  inspector?: InspectorHttp;
  outboundQueueBytes?: number;
  pingIntervalMs?: number;
  signals?: ShutdownSignals;
  stderr?: { write(text: string): unknown };
}

interface SocketState {
  readonly socket: WebSocket;
  readonly connection: Connection;
  unansweredPings: number;
  /** Byte sizes of the messages handed to the socket and not yet written out, oldest first. */
  readonly unwritten: number[];
  unwrittenBytes: number;
}

const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
/** How long closing sockets may take after the core's shutdown before they are cut. */
const SOCKET_CLOSE_GRACE_MS = 1_000;

export class WebSocketJsonRpcServer extends Server<Record<string, never>> implements CustomTransportStrategy {
  override readonly transportId = WEBSOCKET_TRANSPORT;

  private core: TransportHost | null = null;
  private http: HttpServer | null = null;
  private wss: WebSocketServer | null = null;
  private policy: UpgradePolicy | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly sockets = new Set<SocketState>();
  private readonly outboundQueueBytes: number;
  private readonly signals: ShutdownSignals;
  private readonly stderr: { write(text: string): unknown };
  private resolveStopped!: (exitCode: number) => void;
  private readonly stopped = new Promise<number>((resolve) => (this.resolveStopped = resolve));
  private readonly onSignal = (): void => void this.stop();

  constructor(private readonly config: WebSocketServerConfig) {
    super();
    this.outboundQueueBytes = config.outboundQueueBytes ?? DEFAULT_OUTBOUND_QUEUE_BYTES;
    this.signals = config.signals ?? process;
    this.stderr = config.stderr ?? process.stderr;
  }

  attach(core: TransportHost): void {
    this.core = core;
  }

  /** Resolves with the process exit code once the server has shut down. */
  whenStopped(): Promise<number> {
    return this.stopped;
  }

  /** The bound port (the real one when 0 was asked for); null before listening. */
  get port(): number | null {
    const address = this.http?.address();
    return address !== null && typeof address === 'object' ? address.port : null;
  }

  listen(callback: (error?: unknown) => void): void {
    const core = this.core;
    if (core === null) {
      callback(new Error('WebSocketJsonRpcServer: attach(core) must be called before listen()'));
      return;
    }
    let token: string | null;
    try {
      token = this.config.loadToken();
    } catch (error) {
      callback(error);
      return;
    }
    this.policy = {
      token,
      allowedOrigins: new Set(this.config.allowedOrigins),
      admitPageOrigin: this.config.inspector !== undefined,
    };
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: core.maxMessageBytes,
      clientTracking: false,
      handleProtocols: (offered) => selectSubprotocol(offered),
    });
    const http = createServer((request, response) => this.answerHttp(request, response));
    this.http = http;
    http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(core, request, socket, head),
    );
    const { address } = this.config;
    const onBindError = (error: Error): void => {
      callback(
        new WebSocketStartupError(
          `failed to listen on ws://${address.host}:${address.port}: ${error.message}`,
          1,
        ),
      );
    };
    http.once('error', onBindError);
    http.listen(address.port, address.bindHost, () => {
      http.off('error', onBindError);
      // A later listener error must not crash the process; nothing depends on it any more.
      http.on('error', () => undefined);
      for (const signal of SHUTDOWN_SIGNALS) this.signals.on(signal, this.onSignal);
      this.pingTimer = setInterval(
        () => this.pingAll(),
        this.config.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
      );
      this.pingTimer.unref();
      // Written at every log level: a launcher that passed port 0 learns the real port here.
      this.stderr.write(`vv-agent app-server listening on ws://${address.host}:${this.port}\n`);
      callback();
    });
  }

  /** Called by Nest on `app.close()`. */
  close(): void {
    this.detach();
    for (const state of this.sockets) state.socket.terminate();
    this.http?.close();
    this.http?.closeAllConnections();
  }

  on(): void {
    // No transport events: startup failures reject listen(), shutdown resolves whenStopped().
  }

  unwrap<T>(): T {
    return this.http as T;
  }

  /** docs/spec/websocket.md §4 shutdown: readyz 503, upgrades refused, core shutdown, then every socket `1001`. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.core?.shutdown('signal');
    const closed = [...this.sockets].map(
      (state) =>
        new Promise<void>((resolve) => {
          state.socket.once('close', () => resolve());
          state.socket.close(CLOSE_CODES.goingAway, 'server shutting down');
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closed),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, SOCKET_CLOSE_GRACE_MS))),
    ]);
    clearTimeout(timer);
    this.close();
    this.resolveStopped(0);
  }

  private answerHttp(request: IncomingMessage, response: ServerResponse): void {
    if (this.config.inspector?.handle(request, response) === true) return;
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'GET' && path === '/healthz') return json(response, 200, { status: 'ok' });
    if (request.method === 'GET' && path === '/readyz') {
      return this.stopping
        ? json(response, 503, { status: 'shutting_down' })
        : json(response, 200, { status: 'ready' });
    }
    json(response, 404, { error: 'not found' });
  }

  private upgrade(core: TransportHost, request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    if (this.stopping || this.policy === null || this.wss === null) {
      refuseUpgrade(socket, 503, { status: 'shutting_down' });
      return;
    }
    const verdict = checkUpgrade(
      {
        url: request.url ?? '/',
        origin: request.headers.origin,
        host: request.headers.host,
        authorization: request.headers.authorization,
        protocols: offeredSubprotocols(request.headers['sec-websocket-protocol']),
      },
      this.policy,
    );
    if (verdict.kind === 'reject') {
      refuseUpgrade(socket, verdict.status, verdict.body);
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(core, ws));
  }

  private accept(core: TransportHost, socket: WebSocket): void {
    if (this.stopping) {
      socket.close(CLOSE_CODES.goingAway, 'server shutting down');
      return;
    }
    let state: SocketState | null = null;
    const sink: MessageSink = {
      write: (line) => {
        if (state !== null) this.write(state, line);
        return true;
      },
      onDrain: () => {
        // write() never asks the connection to wait: a slow socket is closed instead (§4).
      },
    };
    const connection = core.connect(sink);
    state = { socket, connection, unansweredPings: 0, unwritten: [], unwrittenBytes: 0 };
    const current = state;
    this.sockets.add(current);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        socket.close(CLOSE_CODES.unsupportedData, 'binary frames are not supported');
        return;
      }
      core.receiveLine(connection, toBuffer(data));
    });
    socket.on('pong', () => (current.unansweredPings = 0));
    // ws reports protocol violations (invalid UTF-8 → 1007, too big → 1009) here and closes itself.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(current);
      connection.close();
    });
  }

  /**
   * One outbound message as one text frame. The bound applies to what is queued behind the message
   * the socket is writing now, counted before this message is added: a single large message (a
   * big `thread/read`) is never refused for its own size, nor are the messages right behind it
   * while a reader keeps reading (docs/spec/websocket.md §4).
   */
  private write(state: SocketState, line: string): void {
    const { socket, connection } = state;
    if (socket.readyState !== socket.OPEN) return;
    const queuedBehindHead = state.unwrittenBytes - (state.unwritten[0] ?? 0);
    if (queuedBehindHead > this.outboundQueueBytes) {
      connection.markOutputBroken();
      socket.close(CLOSE_CODES.outboundQueueOverflow, 'outbound queue overflow');
      // Not from inside the connection's writer: it is still pumping this message.
      setImmediate(() => connection.close());
      return;
    }
    const frame = line.endsWith('\n') ? line.slice(0, -1) : line;
    const bytes = Buffer.byteLength(frame, 'utf8');
    state.unwritten.push(bytes);
    state.unwrittenBytes += bytes;
    // ws calls back in order once the frame is written to the OS (or the socket failed).
    socket.send(frame, () => {
      state.unwrittenBytes -= state.unwritten.shift() ?? 0;
    });
  }

  /** Every 30 s; a socket that left two pings unanswered is dead (`1011`). */
  private pingAll(): void {
    for (const state of this.sockets) {
      if (state.unansweredPings >= 2) {
        state.connection.close();
        state.socket.close(CLOSE_CODES.internalError, 'ping timeout');
        continue;
      }
      state.unansweredPings += 1;
      state.socket.ping();
    }
  }

  private detach(): void {
    for (const signal of SHUTDOWN_SIGNALS) this.signals.off(signal, this.onSignal);
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function json(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** An HTTP answer on the raw socket of an upgrade request: no WebSocket is created. */
function refuseUpgrade(socket: Duplex, status: number, body: object): void {
  const text = JSON.stringify(body);
  const reason = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[
    status
  ];
  socket.end(
    `HTTP/1.1 ${status} ${reason ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}
