/**
 * Where the running program's files are. Modules locate package files from here, never from their own
 * `__dirname`: inside the CLI bundle (dist/cli-bundle.js, scripts/bundle-cli.ts) every module shares
 * the bundle's `__dirname`, and the bundle sits in the directory this module compiles to. The
 * runtime imports nothing outside itself, so not this either: its one file, the search worker, sits
 * next to its module, and the bundle step writes a copy next to the bundle.
 */
import { resolve } from 'node:path';

/** `dist` (built, bundled or not) or `src` (ts-node, jest). */
export const CODE_DIR = __dirname;

/** The package root: package.json, schema/. */
export const PACKAGE_ROOT = resolve(__dirname, '..');
