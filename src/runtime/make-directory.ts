/**
 * `mkdir -p` that always ends. Node 20's `mkdir(path, { recursive: true })` never returns when
 * creating a missing directory fails with ENOENT although its parent exists, which is what every path
 * under /proc gives (`--store /proc/x/app-server.sqlite` spun a core at 100 % forever). These create
 * each missing level themselves, from the top, so such a path fails with that ENOENT.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function alreadyThere(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EEXIST';
}

const isRoot = (level: string): boolean => dirname(level) === level;

export function makeDirectorySync(path: string): void {
  const missing: string[] = [];
  for (let level = resolve(path); !existsSync(level) && !isRoot(level); level = dirname(level))
    missing.unshift(level);
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      if (!alreadyThere(error)) throw error;
    }
  }
  // A regular file where the directory should be fails as `mkdir` would (EEXIST).
  if (!statSync(path).isDirectory()) mkdirSync(path);
}

export async function makeDirectory(path: string): Promise<void> {
  const exists = (level: string): Promise<boolean> =>
    stat(level).then(
      () => true,
      () => false,
    );
  const missing: string[] = [];
  for (let level = resolve(path); !(await exists(level)) && !isRoot(level); level = dirname(level))
    missing.unshift(level);
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (error) {
      if (!alreadyThere(error)) throw error;
    }
  }
  if (!(await stat(path)).isDirectory()) await mkdir(path);
}
