/**
 * One WebSocket connection speaking JSON-RPC 2.0 (docs/spec/websocket.md §3: one message per text
 * frame). The token travels as a `Sec-WebSocket-Protocol` entry (§2), since a browser cannot set
 * headers — never in the URL. Every message both ways is reported to `onMessage` for the raw log.
 */
import { isObject, stringOf, type JsonObject, type JsonValue } from './json-value';

export const APP_SERVER_SUBPROTOCOL = 'vv-agent-app-server.v1';
const TOKEN_PREFIX = 'vv-agent-token.';

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export interface SocketEvents {
  onMessage(direction: 'in' | 'out', message: JsonObject): void;
  onNotification(method: string, params: JsonObject): void;
  onServerRequest(id: JsonValue, method: string, params: JsonObject): void;
  /** The connection was lost (not closed by `close()`). */
  onClose(code: number, reason: string): void;
}

interface Pending {
  resolve(result: JsonValue): void;
  reject(error: Error): void;
}

export class JsonRpcSocket {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedByUs = false;

  private constructor(
    private readonly socket: WebSocket,
    private readonly events: SocketEvents,
  ) {
    socket.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
    socket.addEventListener('close', (event: CloseEvent) => {
      for (const entry of this.pending.values()) entry.reject(new Error('connection closed'));
      this.pending.clear();
      if (!this.closedByUs) events.onClose(event.code, event.reason);
    });
  }

  /** Resolves once open; rejects when the server refuses (wrong token, origin) or is unreachable. */
  static open(url: string, token: string, events: SocketEvents): Promise<JsonRpcSocket> {
    const protocols =
      token === '' ? [APP_SERVER_SUBPROTOCOL] : [APP_SERVER_SUBPROTOCOL, TOKEN_PREFIX + token];
    const socket = new WebSocket(url, protocols);
    return new Promise((resolve, reject) => {
      const fail = (): void =>
        reject(new Error(`could not connect to ${url} (server down, wrong token or origin not allowed)`));
      socket.addEventListener('error', fail, { once: true });
      socket.addEventListener(
        'open',
        () => {
          socket.removeEventListener('error', fail);
          resolve(new JsonRpcSocket(socket, events));
        },
        { once: true },
      );
    });
  }

  request(method: string, params?: JsonValue): Promise<JsonValue> {
    const id = this.nextId++;
    const message: JsonObject = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(message);
    });
  }

  notify(method: string, params?: JsonValue): void {
    const message: JsonObject = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /** The answer to a server request (`approval/request`, docs/spec/protocol.md §4.14). */
  respond(id: JsonValue, result: JsonValue): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  close(): void {
    this.closedByUs = true;
    this.socket.close(1000, 'closed by the inspector');
  }

  private send(message: JsonObject): void {
    this.events.onMessage('out', message);
    this.socket.send(JSON.stringify(message));
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: JsonValue;
    try {
      message = JSON.parse(data) as JsonValue;
    } catch {
      return;
    }
    if (!isObject(message)) return;
    this.events.onMessage('in', message);
    const method = stringOf(message.method);
    const params = isObject(message.params) ? message.params : {};
    if (method !== undefined && message.id !== undefined) {
      this.events.onServerRequest(message.id, method, params);
      return;
    }
    if (method !== undefined) {
      this.events.onNotification(method, params);
      return;
    }
    if (typeof message.id !== 'number') return;
    const entry = this.pending.get(message.id);
    if (entry === undefined) return;
    this.pending.delete(message.id);
    if (isObject(message.error)) {
      const code = typeof message.error.code === 'number' ? message.error.code : 0;
      entry.reject(new RpcError(stringOf(message.error.message) ?? 'error', code));
    } else entry.resolve(message.result ?? null);
  }
}
