/**
 * The outbound limit of docs/spec/native-messaging.md §1: browsers disconnect a host that sends a message
 * over 1,048,576 bytes, so no frame is ever larger. Pure: one serialized message in, the JSON to
 * frame out.
 *
 * A message over the limit is first shortened: its longest string values anywhere in `params` /
 * `result` are cut to one common length (the longest that fits) and `"truncated": true` is added to
 * that object. Strings are never cut below `SHORTEST_CUT_BYTES`, so identifiers, enum values and
 * short fields stay intact. When that cannot make the message fit, a response (or error response)
 * becomes the `-32603` error with the same id, and a notification or server request is replaced by
 * an `error/warning` `{code: "message_too_large"}` — the stored data is never touched: this only
 * changes what this connection is sent.
 */
import { classifyEnvelope } from '../../rpc/envelope';
import { errorMessage, notificationMessage } from '../../rpc/outbound-messages';
import { RpcError } from '../../rpc/rpc-error';

export const NATIVE_MESSAGE_LIMIT_BYTES = 1_048_576;

/** A cut string keeps at least this many bytes of JSON (quotes included): ids are ≤ 45 bytes. */
export const SHORTEST_CUT_BYTES = 64;

const INTERNAL_ERROR = -32603;
const WARNING_METHOD = 'error/warning';
export const MESSAGE_TOO_LARGE_CODE = 'message_too_large';

/** Bytes `"truncated":true` adds to a non-empty object (with its comma). */
const TRUNCATED_MEMBER_BYTES = Buffer.byteLength(',"truncated":true');

export type FittedMessage =
  | { kind: 'unchanged'; json: string }
  /** Strings shortened; `label` names the message for diagnostics (`method`, or `response <id>`). */
  | { kind: 'truncated'; json: string; label: string; originalBytes: number }
  /** Replaced by the `-32603` error or an `error/warning`. */
  | { kind: 'replaced'; json: string; label: string; originalBytes: number };

export function limitExceededMessage(bytes: number): string {
  return `message exceeds the native messaging limit (${bytes} bytes); request less (thread/read limit, afterItemId)`;
}

export function droppedNotificationMessage(method: string, bytes: number): string {
  return `${method} exceeds the native messaging limit (${bytes} bytes) and was dropped`;
}

/** Returns the JSON to frame for one serialized outbound message (no terminator). */
export function fitToNativeLimit(json: string, limit: number = NATIVE_MESSAGE_LIMIT_BYTES): FittedMessage {
  // A UTF-16 code unit never takes more than three UTF-8 bytes: most messages need no counting.
  if (json.length * 3 <= limit) return { kind: 'unchanged', json };
  const originalBytes = Buffer.byteLength(json, 'utf8');
  if (originalBytes <= limit) return { kind: 'unchanged', json };

  const message = JSON.parse(json) as Record<string, unknown>;
  const envelope = classifyEnvelope(message);
  const bodyKey = envelope.kind === 'response' ? 'result' : 'params';
  const label =
    envelope.kind === 'request' || envelope.kind === 'notification'
      ? envelope.method
      : `response ${JSON.stringify(message.id ?? null)}`;

  const body = message[bodyKey];
  if (envelope.kind !== 'error-response' && isPlainObject(body)) {
    const shortened = shortenStrings(message, body, originalBytes, limit);
    if (shortened !== null) return { kind: 'truncated', json: shortened, label, originalBytes };
  }

  const replacement =
    envelope.kind === 'request' || envelope.kind === 'notification'
      ? notificationMessage(WARNING_METHOD, warningParams(body, envelope.method, originalBytes))
      : errorMessage(
          envelope.kind === 'invalid' ? null : envelope.id,
          new RpcError(INTERNAL_ERROR, limitExceededMessage(originalBytes)),
        );
  return { kind: 'replaced', json: JSON.stringify(replacement), label, originalBytes };
}

/** error/warning params (docs/spec/protocol.md §4.13): the dropped message's thread and turn when it had them. */
function warningParams(body: unknown, method: string, bytes: number): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (isPlainObject(body)) {
    if (typeof body.threadId === 'string') params.threadId = body.threadId;
    if (typeof body.turnId === 'string') params.turnId = body.turnId;
  }
  params.code = MESSAGE_TOO_LARGE_CODE;
  params.message = droppedNotificationMessage(method, bytes);
  return params;
}

interface StringSlot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  value: string;
  /** Bytes of the value as JSON, quotes and escapes included. */
  bytes: number;
}

/**
 * Cuts every string of `body` longer than a common cap down to it, choosing the largest cap that
 * makes the message fit; null when even `SHORTEST_CUT_BYTES` is not enough. Mutates `message`.
 */
function shortenStrings(
  message: Record<string, unknown>,
  body: Record<string, unknown>,
  originalBytes: number,
  limit: number,
): string | null {
  const slots = collectStrings(body);
  const needed = originalBytes + TRUNCATED_MEMBER_BYTES - limit;
  const saving = (cap: number): number =>
    slots.reduce((sum, slot) => (slot.bytes > cap ? sum + slot.bytes - cap : sum), 0);
  if (saving(SHORTEST_CUT_BYTES) < needed) return null;
  // saving() falls as the cap grows: the largest cap that still saves enough.
  let low = SHORTEST_CUT_BYTES;
  let high = slots.reduce((longest, slot) => Math.max(longest, slot.bytes), SHORTEST_CUT_BYTES);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (saving(middle) >= needed) low = middle;
    else high = middle - 1;
  }
  for (const slot of slots) {
    if (slot.bytes <= low) continue;
    const cut = cutToJsonBytes(slot.value, low);
    if (Array.isArray(slot.holder)) slot.holder[slot.key as number] = cut;
    else slot.holder[slot.key as string] = cut;
  }
  body.truncated = true;
  const json = JSON.stringify(message);
  return Buffer.byteLength(json, 'utf8') <= limit ? json : null;
}

function collectStrings(root: Record<string, unknown>): StringSlot[] {
  const slots: StringSlot[] = [];
  const pending: Array<Record<string, unknown> | unknown[]> = [root];
  for (let holder = pending.pop(); holder !== undefined; holder = pending.pop()) {
    const entries: Array<[string | number, unknown]> = Array.isArray(holder)
      ? holder.map((value, index) => [index, value])
      : Object.entries(holder);
    for (const [key, value] of entries) {
      if (typeof value === 'string') {
        slots.push({ holder, key, value, bytes: jsonStringBytes(value) });
      } else if (Array.isArray(value) || isPlainObject(value)) {
        pending.push(value);
      }
    }
  }
  return slots;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonStringBytes(value: string): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** JSON.stringify's short escapes (`\b \t \n \f \r`); other control characters take `\u00XX`. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** Bytes one code point takes inside a JSON string as JSON.stringify writes it. */
function jsonCodePointBytes(codePoint: number, loneSurrogate: boolean): number {
  if (loneSurrogate) return 6;
  if (codePoint === 0x22 || codePoint === 0x5c) return 2;
  if (codePoint < 0x20) return SHORT_ESCAPES.has(codePoint) ? 2 : 6;
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/** The longest prefix of `value` whose JSON (quotes included) takes at most `maxBytes`; never splits a pair. */
export function cutToJsonBytes(value: string, maxBytes: number): string {
  let budget = maxBytes - 2;
  let index = 0;
  while (index < value.length) {
    const unit = value.charCodeAt(index);
    const next = index + 1 < value.length ? value.charCodeAt(index + 1) : 0;
    const isPair = unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const lone = !isPair && unit >= 0xd800 && unit <= 0xdfff;
    const codePoint = isPair ? (value.codePointAt(index) as number) : unit;
    const cost = jsonCodePointBytes(codePoint, lone);
    if (cost > budget) break;
    budget -= cost;
    index += isPair ? 2 : 1;
  }
  return value.slice(0, index);
}
