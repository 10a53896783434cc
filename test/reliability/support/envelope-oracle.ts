/**
 * The reference outcome of one inbound line (docs/spec/protocol.md §1.2–§1.4), written independently of the
 * server's classifier: what the server must answer, and with which id. The fuzz test compares the
 * server's answers against it line by line.
 */

export type RequestId = string | number;

export type LineVerdict =
  /** Step 2: empty or whitespace only — no answer. */
  | { kind: 'ignored' }
  /** Step 1: `-32600` with `id: null` and `data.reason: "input_too_large"`. */
  | { kind: 'too-large' }
  /** Step 3: `-32700` with `id: null`. */
  | { kind: 'parse-error' }
  /** Step 4: `-32600` with the §1.4 echo id (or null). */
  | { kind: 'invalid'; id: RequestId | null }
  /** A request: exactly one answer (result or error) with this id. */
  | { kind: 'request'; id: RequestId; method: string }
  /** Notifications and client answers to server requests: never answered (here: unmatched). */
  | { kind: 'silent' };

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

type JsonObject = Record<string, unknown>;

const has = (value: JsonObject, key: string) => Object.prototype.hasOwnProperty.call(value, key);
const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isRequestId = (value: unknown): value is RequestId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

function onlyMembers(value: JsonObject, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

function echoId(value: unknown): RequestId | null {
  return isObject(value) && has(value, 'id') && isRequestId(value.id) ? value.id : null;
}

/** §1.3: the kind of a parsed value, or null when it is invalid. */
function classify(value: unknown): LineVerdict | null {
  if (!isObject(value)) return null;
  if (has(value, 'jsonrpc') && value.jsonrpc !== '2.0') return null;
  const method = has(value, 'method');
  const id = has(value, 'id');
  const result = has(value, 'result');
  const error = has(value, 'error');
  if (method && !result && !error) {
    if (typeof value.method !== 'string' || value.method === '') return null;
    if (id) {
      if (!onlyMembers(value, ['jsonrpc', 'id', 'method', 'params']) || !isRequestId(value.id)) return null;
      return { kind: 'request', id: value.id, method: value.method };
    }
    return onlyMembers(value, ['jsonrpc', 'method', 'params']) ? { kind: 'silent' } : null;
  }
  if (!method && id && result && !error) {
    return onlyMembers(value, ['jsonrpc', 'id', 'result']) && isRequestId(value.id)
      ? { kind: 'silent' }
      : null;
  }
  if (!method && id && error && !result) {
    const body = value.error;
    const validError = isObject(body) && Number.isInteger(body.code) && typeof body.message === 'string';
    const validId = value.id === null || isRequestId(value.id);
    return onlyMembers(value, ['jsonrpc', 'id', 'error']) && validError && validId
      ? { kind: 'silent' }
      : null;
  }
  return null;
}

/**
 * The verdict for one line's bytes (without its `\n`). `first` marks the first line of the stream
 * (its UTF-8 BOM is ignored, §1.1).
 */
export function judgeLine(bytes: Buffer, maxMessageBytes: number, first = false): LineVerdict {
  let line = bytes;
  if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
  if (line.length > maxMessageBytes) return { kind: 'too-large' };
  if (first && line.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))) line = line.subarray(3);
  let text: string;
  try {
    text = UTF8.decode(line);
  } catch {
    return { kind: 'parse-error' };
  }
  if (/^[ \t\r]*$/.test(text)) return { kind: 'ignored' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'parse-error' };
  }
  return classify(value) ?? { kind: 'invalid', id: echoId(value) };
}

/** A key that treats ids as the server must echo them (same JSON type; -0 is written as 0). */
export function idKey(id: RequestId | null): string {
  if (id === null) return 'null';
  return typeof id === 'string' ? `s:${id}` : `n:${JSON.stringify(id)}`;
}
