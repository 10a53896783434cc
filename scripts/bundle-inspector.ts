/**
 * Build step (`npm run build`): the inspector page (docs/spec/inspector.md §1) — inspector/src
 * bundled by esbuild into dist/inspector/inspector.js, next to its HTML, CSS and icon. Flat, with
 * no source map, because the server serves only flat names (src/transports/websocket/inspector).
 * Prints the page's gzip size and fails the build above the 300 KB budget.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { INSPECTOR_GZIP_BUDGET_BYTES, inspectorGzipSize } from './inspector-size';

const root = join(__dirname, '..');
const source = join(root, 'inspector');
const outdir = join(root, 'dist', 'inspector');
/** Copied verbatim: the page's static files. */
const STATIC_FILES = ['index.html', 'inspector.css', 'favicon.svg'];

async function bundleInspector(): Promise<void> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [join(source, 'src', 'main.tsx')],
    bundle: true,
    outfile: join(outdir, 'inspector.js'),
    platform: 'browser',
    format: 'esm',
    // Browsers with native <dialog>, WebSocket subprotocols and ES2020 syntax.
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of STATIC_FILES) copyFileSync(join(source, file), join(outdir, file));
  const size = inspectorGzipSize(outdir);
  process.stderr.write(
    `bundled the inspector into ${outdir} (${(size / 1024).toFixed(1)} KB gzip of ${INSPECTOR_GZIP_BUDGET_BYTES / 1024} KB allowed)\n`,
  );
  if (size > INSPECTOR_GZIP_BUDGET_BYTES)
    throw new Error('the inspector page is over its 300 KB gzip budget');
}

bundleInspector().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
