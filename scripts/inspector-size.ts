/**
 * The inspector page's size as shipped: the sum of every file in dist/inspector/ gzipped one by
 * one (what a browser downloads), held to docs/spec/inspector.md §1's 300 KB by the build and a test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const INSPECTOR_GZIP_BUDGET_BYTES = 300 * 1024;

export function inspectorGzipSize(dir: string): number {
  return readdirSync(dir)
    .map((name) => gzipSync(readFileSync(join(dir, name)), { level: 9 }).length)
    .reduce((total, size) => total + size, 0);
}
