/**
 * Runs a {@link SearchJob} on a worker thread with a deadline, so that neither a catastrophic regex
 * nor a huge file blocks the server's event loop (issue 12). Past the deadline, or when the run is
 * cancelled, the worker is terminated (V8 interrupts even a regex in progress).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { SearchJob, SearchJobResult } from './search-job';
import { BuiltinToolError } from './tool-error';

/** Time one `search_files` call may take. */
export const SEARCH_DEADLINE_MS = 10_000;

export class SearchCancelled extends Error {}

/**
 * The built worker is plain JavaScript next to this module: dist/runtime/tools/builtins, or, when
 * the CLI runs from its bundle (where every module's `__dirname` is the bundle's directory), the
 * copy the bundle step writes next to the bundle (scripts/bundle-cli.ts). The runtime finds it from
 * its own location because it imports nothing outside itself. From TypeScript sources (tests,
 * ts-node) the entry is bundled once per process with esbuild, a development dependency:
 * registering ts-node in every worker cost about 800 ms per search.
 */
let workerSource: string | undefined;

function workerBootstrap(): string {
  if (workerSource !== undefined) return workerSource;
  const built = path.join(__dirname, 'search-worker.js');
  if (existsSync(built)) {
    workerSource = `require(${JSON.stringify(built)});\n`;
  } else {
    // Loaded only from sources, so the installed package never needs esbuild.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    const output = esbuild.buildSync({
      entryPoints: [path.join(__dirname, 'search-worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
    });
    workerSource = output.outputFiles[0].text;
  }
  return workerSource;
}

export function searchInWorker(
  job: SearchJob,
  options: { deadlineMs?: number; signal: AbortSignal },
): Promise<SearchJobResult> {
  const deadlineMs = options.deadlineMs ?? SEARCH_DEADLINE_MS;
  const code = workerBootstrap();
  return new Promise<SearchJobResult>((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new SearchCancelled('Operation was cancelled'));
      return;
    }
    const worker = new Worker(code, { eval: true, workerData: { job } });
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = (): void => finish(() => reject(new SearchCancelled('Operation was cancelled')));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new BuiltinToolError(
              'search_timeout',
              `Search timed out after ${deadlineMs / 1000} seconds; use a simpler pattern or a narrower path/glob/type.`,
            ),
          ),
        ),
      deadlineMs,
    );
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: SearchJobResult) => finish(() => resolve(result)));
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (exitCode) =>
      finish(() => reject(new Error(`search worker exited with code ${exitCode}`))),
    );
  });
}
