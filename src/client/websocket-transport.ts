/**
 * The typed client over WebSocket (docs/spec/websocket.md §7): one JSON-RPC message per text frame. Runs in
 * browsers (the global `WebSocket`) and in Node (the `ws` package, loaded only there). Nothing
 * Node-only is imported here statically, so a browser bundle of the client does not pull it in.
 *
 * Auth uses the subprotocol form (browsers cannot set headers): `vv-agent-token.<token>` next to
 * `vv-agent-app-server.v1`, which the server selects — a client that offers subprotocols must get
 * one back, and the server never echoes the token entry.
 */
import type { ClientTransport, TransportListener } from './client-transport';

export const APP_SERVER_SUBPROTOCOL = 'vv-agent-app-server.v1';
export const TOKEN_SUBPROTOCOL_PREFIX = 'vv-agent-token.';

/** The part of the WHATWG WebSocket API this transport uses (browsers and `ws` both have it). */
interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: (event: unknown) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

type WebSocketConstructor = new (url: string, protocols?: string[]) => WebSocketLike;

const OPEN = 1;

export interface WebSocketConnectOptions {
  /** The server's token (`--ws-token-file`); omit for a `--ws-no-auth` server. */
  token?: string;
}

/** An open socket whose inbound frames are kept until the client attaches its listener. */
export interface OpenWebSocket {
  transport(listener: TransportListener): ClientTransport;
}

/** Opens the socket; rejects with the reason when the upgrade fails (wrong token, no server, …). */
export async function openWebSocket(
  url: string,
  options: WebSocketConnectOptions = {},
): Promise<OpenWebSocket> {
  const WebSocketImpl = await webSocketConstructor();
  const protocols = [APP_SERVER_SUBPROTOCOL];
  if (options.token !== undefined) protocols.push(`${TOKEN_SUBPROTOCOL_PREFIX}${options.token}`);
  const socket = new WebSocketImpl(url, protocols);

  let listener: TransportListener | null = null;
  const early: string[] = [];
  let closedEarly = false;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    if (listener === null) early.push(event.data);
    else listener.line(event.data);
  });

  await new Promise<void>((resolve, reject) => {
    let opened = false;
    socket.addEventListener('open', () => {
      opened = true;
      resolve();
    });
    socket.addEventListener('error', (event) => {
      if (!opened) reject(new Error(errorText(event)));
    });
    socket.addEventListener('close', () => {
      if (!opened) reject(new Error('connection closed during the handshake'));
      if (listener === null) closedEarly = true;
      else listener.closed();
      markClosed();
    });
  });

  return {
    transport(attached) {
      listener = attached;
      for (const line of early.splice(0)) attached.line(line);
      if (closedEarly) attached.closed();
      return {
        send(line) {
          if (socket.readyState === OPEN) socket.send(line);
        },
        async close() {
          if (socket.readyState === OPEN) socket.close(1000, 'client closed');
          await closed;
        },
      };
    },
  };
}

/**
 * In Node the `ws` package (a dependency of this package), else the global `WebSocket` (browsers).
 * Node 22+ has a global WebSocket too, but its error event carries no reason at all: a refused
 * upgrade would read "WebSocket error" instead of "Unexpected server response: 401".
 */
async function webSocketConstructor(): Promise<WebSocketConstructor> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global === undefined || runsOnNode()) {
    try {
      // A computed specifier: bundlers for the browser (which has a global WebSocket) leave `ws` out.
      const nodeWebSocketPackage = 'ws';
      const loaded = (await import(nodeWebSocketPackage)) as { WebSocket: WebSocketConstructor };
      return loaded.WebSocket;
    } catch (error) {
      // A Node bundle of the client built without `ws` still has the global one.
      if (global === undefined) throw error;
    }
  }
  return global;
}

function runsOnNode(): boolean {
  const versions = (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions;
  return typeof versions?.node === 'string';
}

/** `ws` puts the reason (e.g. "Unexpected server response: 401") on the error event; browsers give none. */
function errorText(event: unknown): string {
  const message = (event as { message?: unknown; error?: { message?: unknown } } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : 'WebSocket error';
}
