/**
 * The committed schema files as the running program serves them (docs/spec/protocol.md §11.1: `schema/export`
 * and the CLI schema commands serve the committed bytes, embedded at build time, and never
 * regenerate). `npm run build` embeds `schema/app-server/**` into `dist` next to this module
 * (scripts/embed-schema.ts); from sources (tests, ts-node) the committed directory is read directly.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SchemaFileSet } from './schema-files';
import { CODE_DIR, PACKAGE_ROOT } from '../../../package-layout';

/** `schema/app-server` of the package. */
export const COMMITTED_SCHEMA_DIR = resolve(PACKAGE_ROOT, 'schema', 'app-server');
/** The build's copy of the committed files, as one `SchemaFileSet` JSON document (next to this module in dist). */
export const EMBEDDED_SCHEMA_FILE = join(
  CODE_DIR,
  'protocols',
  'app-server-v1',
  'schema',
  'embedded-schema-files.json',
);

function filesWithSuffix(directory: string, suffix: string): string[] {
  return readdirSync(directory)
    .filter((fileName) => fileName.endsWith(suffix))
    .sort();
}

/** Reads `<root>/json/<Name>.json` and `<root>/typescript/<Name>.ts`, in name order. */
export function readSchemaDirectory(root: string): SchemaFileSet {
  const files: SchemaFileSet = { jsonSchema: {}, typescript: {} };
  const jsonDir = join(root, 'json');
  for (const fileName of filesWithSuffix(jsonDir, '.json')) {
    files.jsonSchema[fileName.slice(0, -'.json'.length)] = readFileSync(join(jsonDir, fileName), 'utf8');
  }
  const tsDir = join(root, 'typescript');
  for (const fileName of filesWithSuffix(tsDir, '.ts')) {
    files.typescript[fileName] = readFileSync(join(tsDir, fileName), 'utf8');
  }
  return files;
}

let cached: SchemaFileSet | null = null;

/** The embedded files (read once); throws when the build did not embed them and no committed copy exists. */
export function committedSchemaFiles(): SchemaFileSet {
  if (cached === null) {
    cached = existsSync(EMBEDDED_SCHEMA_FILE)
      ? (JSON.parse(readFileSync(EMBEDDED_SCHEMA_FILE, 'utf8')) as SchemaFileSet)
      : readSchemaDirectory(COMMITTED_SCHEMA_DIR);
  }
  return cached;
}
