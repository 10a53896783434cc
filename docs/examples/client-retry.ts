/** protocol-guide.md "Errors": retrying `-32001 Server overloaded; retry later.` with backoff. */
import { AppServerClientError } from 'vv-agent-app-server';

// #region retry
export const SERVER_OVERLOADED = -32001;

/**
 * Retries `call` while the server answers -32001, waiting 100 ms, 200 ms, 400 ms … (capped at 5 s,
 * with jitter) between attempts. Every other error is thrown at once: retrying those cannot help.
 */
export async function withOverloadRetry<T>(
  call: () => Promise<T>,
  options: { maxAttempts?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 6;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const overloaded = error instanceof AppServerClientError && error.code === SERVER_OVERLOADED;
      if (!overloaded || attempt >= maxAttempts) throw error;
      const backoff = Math.min(100 * 2 ** (attempt - 1), 5_000);
      await sleep(backoff / 2 + Math.random() * (backoff / 2));
    }
  }
}
// #endregion retry
