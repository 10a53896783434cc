/**
 * One HTTP attempt: POST the body and hand each response chunk to a consumer as it arrives
 * (runtime.md §14.1, §14.4). The timeout covers connect and the complete body; the abort signal
 * destroys the socket at once. Transport failures reject with `AttemptFailure`; an error thrown by
 * the consumer rejects the attempt unchanged.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { AttemptFailure, httpErrorText, parseRetryAfterMs } from './attempt-failure';

/** Receives a 2xx body. `push` returns true once the body is complete (e.g. `[DONE]` was read). */
export interface ResponseBodyConsumer {
  push(chunk: Buffer): boolean;
  end(): void;
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
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | null = null;

    const onAbort = (): void => fail(new AttemptFailure('request cancelled', 'cancelled'));
    const timer = setTimeout(
      () => fail(new AttemptFailure(timeoutText(attempt.timeoutMs), 'timeout')),
      attempt.timeoutMs,
    );
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
        try {
          if (consumer.push(chunk)) succeed(response);
        } catch (error) {
          fail(error);
        }
      });
      response.on('end', () => {
        if (settled) return;
        try {
          consumer.end();
          succeed(response);
        } catch (error) {
          fail(error);
        }
      });
      const interrupted = (detail: string): void =>
        fail(new AttemptFailure(`response stream interrupted: ${detail}`, 'network'));
      response.on('error', (error) => interrupted(error.message));
      response.on('close', () => {
        if (!response.complete) interrupted('connection closed before the response completed');
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
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) readBody(response);
        else readErrorBody(response, status);
      },
    );
    request.on('error', (error) => fail(new AttemptFailure(error.message, 'network')));
    request.end(attempt.body);
  });
}
