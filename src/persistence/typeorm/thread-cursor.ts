/**
 * The opaque `thread/list` cursor (docs/spec/protocol.md §3.6): base64url of `{"u":updatedAt,"t":threadId}`,
 * naming the last thread of a page. Clients must not build it; anything else is `is invalid`.
 */
import { InvalidThreadCursorError } from './store-errors';

export interface ThreadCursor {
  updatedAt: number;
  threadId: string;
}

export function encodeThreadCursor(cursor: ThreadCursor): string {
  return Buffer.from(JSON.stringify({ u: cursor.updatedAt, t: cursor.threadId }), 'utf8').toString(
    'base64url',
  );
}

/** Throws InvalidThreadCursorError unless `text` is exactly what encodeThreadCursor produces. */
export function decodeThreadCursor(text: string): ThreadCursor {
  if (text.length === 0 || !/^[A-Za-z0-9_-]+$/.test(text)) throw new InvalidThreadCursorError();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidThreadCursorError();
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidThreadCursorError();
  const { u, t } = value as Record<string, unknown>;
  if (typeof u !== 'number' || !Number.isSafeInteger(u) || typeof t !== 'string' || t.length === 0) {
    throw new InvalidThreadCursorError();
  }
  const cursor = { updatedAt: u, threadId: t };
  // Reject non-canonical spellings so only values this store handed out are accepted.
  if (encodeThreadCursor(cursor) !== text) throw new InvalidThreadCursorError();
  return cursor;
}
