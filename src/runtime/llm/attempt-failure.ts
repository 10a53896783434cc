/** How one HTTP attempt failed and what the client does about it (docs/spec/runtime.md §14.4). */

/**
 * `request`: the request could not be built or a local consumer failed (never retried);
 * `stream`: the 2xx body carried a provider error payload; `malformed`: a chunk that is not JSON;
 * `incomplete`: a stream ended without a finish reason or `[DONE]`; `unexpected_body`: a 2xx body
 * that is neither SSE nor a JSON completion (HTML, empty, JSON without `choices`) — §14.4 v1.1.
 */
export type AttemptFailureKind =
  | 'cancelled'
  | 'timeout'
  | 'network'
  | 'http'
  | 'stream'
  | 'malformed'
  | 'request'
  | 'incomplete'
  | 'unexpected_body';

export class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly kind: AttemptFailureKind,
    /** HTTP status, or a status-like code from a stream error payload. */
    readonly status: number | null = null,
    /** From a `Retry-After` header. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'AttemptFailure';
  }
}

export type FailureAction = 'retry' | 'failover' | 'abort';

function actionForStatus(status: number): FailureAction {
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) return 'retry';
  if (status === 400 || status === 413 || status === 422) return 'abort';
  return 'failover';
}

export function actionFor(failure: AttemptFailure): FailureAction {
  switch (failure.kind) {
    case 'timeout':
    case 'network':
    case 'incomplete':
      return 'retry';
    case 'http':
      return actionForStatus(failure.status ?? 0);
    case 'stream':
      // A provider error payload without a status reports a server-side failure, like a 5xx.
      return failure.status === null ? 'retry' : actionForStatus(failure.status);
    case 'malformed':
    case 'unexpected_body':
      // Not in §14.4's retryable list: the same endpoint would most likely answer the same way.
      return 'failover';
    case 'cancelled':
    case 'request':
      return 'abort';
  }
}

export { isPromptTooLong } from '../model/prompt-too-long';

/** `Retry-After` as delta-seconds or an HTTP date; `null` when absent or unparseable. */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always names its weekday and month; bare numbers like `-1` are not dates.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

export const INCOMPLETE_STREAM_TEXT = 'model stream ended before completion';

/** `unexpected response body: <first 200 characters>` — never taken as an empty reply (§14.4 v1.1). */
export function unexpectedBodyFailure(body: string): AttemptFailure {
  const head = Array.from(body.trim().slice(0, 400)).slice(0, 200).join('');
  return new AttemptFailure(`unexpected response body: ${head}`, 'unexpected_body');
}

/** `HTTP <status>: <first 500 characters of the body>`; just `HTTP <status>` for an empty body. */
export function httpErrorText(status: number, body: string): string {
  const trimmed = body.trim();
  if (trimmed === '') return `HTTP ${status}`;
  return `HTTP ${status}: ${Array.from(trimmed.slice(0, 1000)).slice(0, 500).join('')}`;
}
