#!/usr/bin/env node
/**
 * The `vv-agent` executable. `npm run build` bundles the CLI (src/cli/cli-main.ts and everything it
 * loads) into one file beside this one (scripts/bundle-cli.ts); running it through a V8 code cache
 * cuts start-up by more than half (docs/performance-notes.md). Without a bundle (a tsc-only build, or
 * sources under ts-node) the CLI runs as separate modules. Nothing here writes to stdout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleStamp } from './cli/code-cache/bundle-stamp';
import { CodeCacheStore } from './cli/code-cache/code-cache-store';
import { runCachedScript } from './cli/code-cache/cached-script';
import { offerCodeCacheSave } from './cli/code-cache/code-cache-save';

const CLI_BUNDLE = join(__dirname, 'cli-bundle.js');

if (existsSync(CLI_BUNDLE)) {
  // The build escapes every non-ASCII character, so latin1 reads the same text as utf8, faster, and
  // V8 keeps it as a one-byte string.
  const source = readFileSync(CLI_BUNDLE, 'latin1');
  const hash = bundleStamp(source);
  const run = runCachedScript(
    CLI_BUNDLE,
    source,
    hash === null ? null : new CodeCacheStore(CLI_BUNDLE, hash),
  );
  // The CLI decides on a command only after a tick (cli-main.ts), so the offer is in place by then.
  if (run.outcome === 'absent' || run.outcome === 'rejected') offerCodeCacheSave(run.saveCache);
} else {
  void import('./cli/cli-main');
}
