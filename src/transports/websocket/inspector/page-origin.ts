/**
 * docs/spec/inspector.md §1: "the page's own origin is admitted for its WebSocket connection".
 * The page's origin is `http://` + the `Host` it was loaded from. A DNS name is admitted only when
 * it is `localhost`: any other name could be an attacker's domain rebound to this address (DNS
 * rebinding), whose page would then send a matching Host and Origin. IP literals cannot be rebound.
 * Names other than localhost still work through `--ws-allow-origin`.
 */
import { isIP } from 'node:net';

export function isInspectorPageOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || origin !== `http://${host}`) return false;
  const hostname = hostnameOf(host);
  return hostname !== null && (hostname === 'localhost' || isIP(hostname) !== 0);
}

/** `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `::1`; null when malformed. */
function hostnameOf(host: string): string | null {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::\d+)?$/.exec(host);
  if (bracketed !== null) return bracketed[1];
  const plain = /^([^:[\]]+)(?::\d+)?$/.exec(host);
  return plain === null ? null : plain[1].toLowerCase();
}
