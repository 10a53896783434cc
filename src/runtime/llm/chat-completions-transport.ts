/**
 * One HTTP attempt: POST the body and hand each response chunk to a consumer as it arrives
 * (docs/spec/runtime.md §14.1, §14.4). The timeout is an idle timeout (v1.1): it bounds the wait for the
 * response headers and then every gap between two body chunks that carry data, so a stream that keeps
 * delivering is never cut off, while one sending only keep-alive comments or blank lines expires like
 * silence (v1.2). The abort signal destroys the socket at once. Transport failures reject with `AttemptFailure`; an error thrown by
 * the consumer rejects the attempt unchanged.
 */
import * as http from 'node:http';
import type * as HttpsModule from 'node:https';
import { performance } from 'node:perf_hooks';
import { AttemptFailure, httpErrorText, parseRetryAfterMs } from './attempt-failure';

let https: typeof HttpsModule | undefined;

/** TLS loads with the first https endpoint (~4 ms of every start otherwise); a local model never needs it. */
function loadHttps(): typeof HttpsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load, see above
  return (https ??= require('node:https') as typeof HttpsModule);
}

/**
 * What one body chunk was: `done` completes the body (e.g. `[DONE]` was read); `data` carried data
 * and restarts the idle window; `keepAlive` held only SSE comments and blank lines, which do not
 * count as delivery (docs/spec/runtime.md §14.4 v1.2).
 */
export type ChunkOutcome = 'done' | 'data' | 'keepAlive';

/** Receives a 2xx body, one chunk at a time. */
export interface ResponseBodyConsumer {
  push(chunk: Buffer): ChunkOutcome;
  /**
   * The body ended, `cleanly` or by a reset: throws when what arrived is not a complete response
   * (a reset body cannot be judged as a whole, so only its stream events count).
   */
  end(cleanly: boolean): void;
}

export interface ChatCompletionsAttempt {
  url: URL;
  apiKey: string;
  body: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Chooses how to read a 2xx body from its `Content-Type`. */
  consumerFor(contentType: string): ResponseBodyConsumer;
}

/** Enough of an error body to report its first 500 characters and spot prompt-too-long texts. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** After `[DONE]` the rest of the body is drained this long so the socket can be reused. */
const DRAIN_AFTER_DONE_MS = 1000;

function timeoutText(timeoutMs: number): string {
  return `request timed out after ${(timeoutMs / 1000).toFixed(3)} seconds`;
}

export function postChatCompletions(attempt: ChatCompletionsAttempt): Promise<void> {
  const { url, signal } = attempt;
  if (signal.aborted) return Promise.reject(new AttemptFailure('request cancelled', 'cancelled'));
  const transport = url.protocol === 'https:' ? loadHttps() : http;

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | null = null;

    const onAbort = (): void => fail(new AttemptFailure('request cancelled', 'cancelled'));
    /**
     * The idle timeout is one timer that, when it fires, re-arms for what is left of the window
     * since the last progress: re-creating a timer for every body chunk was a timer-list insert
     * per streamed delta.
     */
    let lastProgressAt = performance.now();
    const expireIfIdle = (): void => {
      const idleMs = performance.now() - lastProgressAt;
      if (idleMs >= attempt.timeoutMs) fail(new AttemptFailure(timeoutText(attempt.timeoutMs), 'timeout'));
      else if (!settled) timer = setTimeout(expireIfIdle, attempt.timeoutMs - idleMs);
    };
    let timer = setTimeout(expireIfIdle, attempt.timeoutMs);
    /** Restarts the idle window: called when the headers and each body chunk with data arrive. */
    const progressed = (): void => {
      lastProgressAt = performance.now();
    };
    signal.addEventListener('abort', onAbort, { once: true });

    function settle(): boolean {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      return true;
    }
    function fail(error: unknown): void {
      if (!settle()) return;
      request?.destroy();
      reject(error);
    }
    function succeed(response: http.IncomingMessage): void {
      if (!settle()) return;
      if (!response.complete) {
        response.resume();
        const drain = setTimeout(() => response.destroy(), DRAIN_AFTER_DONE_MS);
        drain.unref();
        response.once('close', () => clearTimeout(drain));
      }
      resolve();
    }

    function readErrorBody(response: http.IncomingMessage, status: number): void {
      const pieces: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size >= MAX_ERROR_BODY_BYTES) return;
        pieces.push(chunk);
        size += chunk.length;
      });
      const report = (): void => {
        const retryAfter = response.headers['retry-after'];
        const retryAfterMs = parseRetryAfterMs(
          Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          Date.now(),
        );
        const text = httpErrorText(status, Buffer.concat(pieces).toString('utf8'));
        fail(new AttemptFailure(text, 'http', status, retryAfterMs));
      };
      response.on('end', report);
      // A dropped connection still reports the status and what arrived of the body.
      response.on('error', report);
      response.on('close', report);
    }

    function readBody(response: http.IncomingMessage): void {
      const consumer = attempt.consumerFor(String(response.headers['content-type'] ?? ''));
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        let outcome: ChunkOutcome;
        try {
          outcome = consumer.push(chunk);
        } catch (error) {
          fail(error);
          return;
        }
        if (outcome === 'done') succeed(response);
        else if (outcome === 'data') progressed();
      });
      // A clean end and a reset are judged alike (§14.4 v1.1): complete (finish reason or `[DONE]`
      // seen) succeeds, anything else fails as the consumer says (incomplete stream, unexpected body).
      const finished = (): void => {
        if (settled) return;
        try {
          consumer.end(response.complete);
          succeed(response);
        } catch (error) {
          fail(error);
        }
      };
      response.on('end', finished);
      response.on('error', finished);
      response.on('close', () => {
        if (!response.complete) finished();
      });
    }

    request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${attempt.apiKey}`,
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
          'Content-Length': Buffer.byteLength(attempt.body),
        },
      },
      (response) => {
        if (settled) {
          response.destroy();
          return;
        }
        progressed();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) readBody(response);
        else readErrorBody(response, status);
      },
    );
    request.on('error', (error) => fail(new AttemptFailure(error.message, 'network')));
    request.end(attempt.body);
  });
}
