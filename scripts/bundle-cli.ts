/**
 * Build step (`npm run build`, after tsc): bundles the CLI (dist/cli/cli-main.js and everything it
 * loads) into dist/cli-bundle.js, which dist/main.js runs with a V8 code cache. One file instead of
 * ~3,000 module loads is most of the cold-start gain (docs/performance-notes.md).
 *
 * The input is tsc's output, not the sources: esbuild does not emit decorator metadata, which Nest's
 * dependency injection reads. The bundle sits directly in dist, so `__dirname` in every bundled
 * module is the directory src/package-layout.ts compiles to, through which modules find package
 * files (package.json, the embedded schema). The runtime, which imports nothing outside itself,
 * finds its search worker next to its own module, so a bundled copy of the worker goes next to the
 * bundle too (dist/search-worker.js).
 */
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stampBundle } from '../src/cli/code-cache/bundle-stamp';
import { escapeNonAscii } from './cli-bundle/ascii-escape';
import { deferredRequires, TYPEORM_DEFERRED_REQUIRES } from './cli-bundle/deferred-requires';
import { deferredTimestampFormat } from './cli-bundle/deferred-timestamp-format';
import {
  CLASS_VALIDATOR_DECORATORS,
  lazyReexportsOf,
  NEST_INDEXES,
  RXJS_INDEXES,
  TYPEORM_INDEX,
} from './cli-bundle/lazy-reexports';
import { PHONE_NUMBER_METADATA, standIns, UNUSED_TYPEORM_DRIVERS } from './cli-bundle/stand-ins';

const root = join(__dirname, '..');
const outfile = join(root, 'dist', 'cli-bundle.js');
/** Where src/runtime/tools/builtins/search-in-worker.ts looks for the worker when it runs bundled. */
const searchWorkerFile = join(root, 'dist', 'search-worker.js');

/**
 * Not bundled: the native SQLite addon; pg's optional native binding; packages Nest loads only for
 * transports and platforms the App Server does not use (absent from node_modules); and `typescript`,
 * `prettier` and `@fig/complete-commander`, which nest-commander's stack requires lazily on paths the
 * CLI never takes (inlining them tripled the bundle and slowed start-up); and `esbuild`, which the
 * search tool loads only to build its worker from sources (ts-node), never from dist; and
 * `@opentelemetry/*`, which src/cli/observability loads only when observability is switched on.
 */
const EXTERNAL = [
  'sqlite3',
  'pg-native',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  '@nestjs/platform-express',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  'amqp-connection-manager',
  'amqplib',
  'ioredis',
  'kafkajs',
  'mqtt',
  'nats',
  'typescript',
  'prettier',
  '@fig/complete-commander',
  'esbuild',
  // docs/spec/observability.md §1: loaded only when observability is on, so never parsed otherwise.
  '@opentelemetry/*',
];

async function bundleCli(): Promise<void> {
  const result = await build({
    entryPoints: [join(root, 'dist', 'cli', 'cli-main.js')],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    write: false,
    outfile,
    external: EXTERNAL,
    // tslib's CommonJS build, as Node itself loads it for Nest's and TypeORM's modules: its ESM build
    // (the `module` condition) became one `__toCommonJS` copy of all its helpers per requiring
    // module, each helper then read through a getter.
    alias: { tslib: 'tslib/tslib.js' },
    // Each plugin keeps what a start does not need from being evaluated (or bundled at all), and fails
    // the build if the package it rewrites changed shape (docs/performance-notes.md, 2026-12-05).
    plugins: [
      deferredTimestampFormat,
      lazyReexportsOf([CLASS_VALIDATOR_DECORATORS, TYPEORM_INDEX, RXJS_INDEXES, NEST_INDEXES]),
      deferredRequires(TYPEORM_DEFERRED_REQUIRES),
      standIns([UNUSED_TYPEORM_DRIVERS, PHONE_NUMBER_METADATA]),
    ],
    legalComments: 'eof',
    // Half the bytes to read, decode and deserialize at every start (10.8 → 5.3 MB, ~40 ms of ~400 on
    // this machine). Names stay: Nest, TypeORM and our errors read classes' and functions' `name`.
    // CPU profiles show the minified names, so `CLI_BUNDLE_MINIFY=0 npm run build` skips it.
    minify: process.env.CLI_BUNDLE_MINIFY !== '0',
    keepNames: true,
    logLevel: 'warning',
  });
  const body = escapeNonAscii(result.outputFiles[0].text);
  writeFileSync(outfile, stampBundle(body));
  process.stderr.write(`bundled the CLI into ${outfile} (${(body.length / 1e6).toFixed(1)} MB)\n`);
}

/** The `search_files` worker thread's entry, self-contained, for the bundled CLI. */
async function bundleSearchWorker(): Promise<void> {
  await build({
    entryPoints: [join(root, 'dist', 'runtime', 'tools', 'builtins', 'search-worker.js')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: searchWorkerFile,
    minify: process.env.CLI_BUNDLE_MINIFY !== '0',
    keepNames: true,
    logLevel: 'warning',
  });
}

Promise.all([bundleCli(), bundleSearchWorker()]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
