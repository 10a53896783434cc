/**
 * The checks an HTTP request to the listener goes through before it may become a WebSocket
 * (docs/spec/websocket.md §2), in the spec's order: path (404), then origin (403), then token (401). Pure
 * apart from the constant-time comparison.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isInspectorPageOrigin } from './inspector/page-origin';

export const TOKEN_SUBPROTOCOL_PREFIX = 'vv-agent-token.';
export const APP_SERVER_SUBPROTOCOL = 'vv-agent-app-server.v1';

export interface UpgradeRequest {
  /** The request target (path and query). */
  url: string;
  origin: string | undefined;
  /** The `Host` header: with `admitPageOrigin`, the inspector page's own origin passes (docs/spec/inspector.md §1). */
  host?: string;
  authorization: string | undefined;
  /** `Sec-WebSocket-Protocol` entries as offered, in order. */
  protocols: readonly string[];
}

export interface UpgradePolicy {
  /** null: `--ws-no-auth`. */
  token: string | null;
  allowedOrigins: ReadonlySet<string>;
  /** `--inspector`: the origin the page was served from is admitted too. */
  admitPageOrigin?: boolean;
}

export type UpgradeVerdict =
  { kind: 'accept' } | { kind: 'reject'; status: 401 | 403 | 404; body: { error: string } };

export const REJECTIONS = {
  notFound: { kind: 'reject', status: 404, body: { error: 'not found' } },
  originNotAllowed: { kind: 'reject', status: 403, body: { error: 'origin not allowed' } },
  unauthorized: { kind: 'reject', status: 401, body: { error: 'unauthorized' } },
} as const satisfies Record<string, UpgradeVerdict>;

export function checkUpgrade(request: UpgradeRequest, policy: UpgradePolicy): UpgradeVerdict {
  if (requestPath(request.url) !== '/') return REJECTIONS.notFound;
  if (request.origin !== undefined && !originAdmitted(request.origin, request.host, policy))
    return REJECTIONS.originNotAllowed;
  if (policy.token !== null && !presentsToken(request, policy.token)) return REJECTIONS.unauthorized;
  return { kind: 'accept' };
}

function originAdmitted(origin: string, host: string | undefined, policy: UpgradePolicy): boolean {
  if (policy.allowedOrigins.has(origin)) return true;
  return policy.admitPageOrigin === true && isInspectorPageOrigin(origin, host);
}

/** The path of a request target, without its query. */
export function requestPath(url: string): string {
  const query = url.indexOf('?');
  return query >= 0 ? url.slice(0, query) : url;
}

/**
 * The subprotocol the server selects: `vv-agent-app-server.v1` when offered, never the token entry
 * (docs/spec/websocket.md §2); false selects none.
 */
export function selectSubprotocol(offered: ReadonlySet<string>): string | false {
  return offered.has(APP_SERVER_SUBPROTOCOL) ? APP_SERVER_SUBPROTOCOL : false;
}

/** Either form may carry the token; every candidate is compared, so timing tells nothing about which one. */
function presentsToken(request: UpgradeRequest, token: string): boolean {
  const candidates: string[] = [];
  const bearer = /^Bearer[ ]+(\S+)\s*$/i.exec(request.authorization ?? '');
  if (bearer !== null) candidates.push(bearer[1]);
  for (const entry of request.protocols)
    if (entry.startsWith(TOKEN_SUBPROTOCOL_PREFIX))
      candidates.push(entry.slice(TOKEN_SUBPROTOCOL_PREFIX.length));
  let matched = false;
  for (const candidate of candidates) if (tokensEqual(candidate, token)) matched = true;
  return matched;
}

/** Constant-time in the token's content and length: equal-length digests are compared. */
export function tokensEqual(presented: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** `Sec-WebSocket-Protocol` header value(s) → entries. */
export function offeredSubprotocols(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values
    .flatMap((value) => value.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
