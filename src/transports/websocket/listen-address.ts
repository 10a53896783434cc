/**
 * The `ws://HOST:PORT` listen address of docs/spec/websocket.md §1: HOST an IPv4 literal, an `[IPv6]` literal
 * or `localhost`; PORT 0–65535 (0 = any free port). Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface WebSocketListenAddress {
  /** HOST exactly as given on the command line (`[::1]` keeps its brackets): the readiness line uses it. */
  host: string;
  /** What to bind: HOST without IPv6 brackets. */
  bindHost: string;
  port: number;
}

const WS_URL = /^ws:\/\/(\[[^\]]*\]|[^:/[\]]+):([0-9]{1,5})$/;

/** null when `raw` is not a valid `ws://HOST:PORT`. */
export function parseWebSocketListenAddress(raw: string): WebSocketListenAddress | null {
  const match = WS_URL.exec(raw);
  if (match === null) return null;
  const [, host, portText] = match;
  const port = Number(portText);
  if (port > 65_535) return null;
  if (host.startsWith('[')) {
    const inner = host.slice(1, -1);
    return isIPv6(inner) ? { host, bindHost: inner, port } : null;
  }
  if (host === 'localhost' || isIPv4(host)) return { host, bindHost: host, port };
  return null;
}

/** `127.0.0.0/8`, `[::1]` and `localhost` (docs/spec/websocket.md §1, `--ws-no-auth`). */
export function isLoopbackAddress(address: WebSocketListenAddress): boolean {
  if (address.host === 'localhost') return true;
  if (address.host.startsWith('['))
    return address.bindHost === '::1' || address.bindHost === '0:0:0:0:0:0:0:1';
  return address.bindHost.split('.')[0] === '127';
}
