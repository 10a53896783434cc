/** The package version (package.json `version`), read at runtime. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-layout';

let version: string | null = null;

export function packageVersion(): string {
  if (version === null) {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    version = typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  }
  return version;
}
