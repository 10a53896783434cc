/** The package version (package.json `version`), read at runtime: src/cli and dist/cli are both 2 deep. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let version: string | null = null;

export function packageVersion(): string {
  if (version === null) {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    version = typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  }
  return version;
}
