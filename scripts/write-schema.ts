/**
 * `npm run schema:write`: regenerates the committed schema files from the protocol's single source
 * (docs/spec/protocol.md §11.1) into `schema/app-server/json/<Name>.json` and
 * `schema/app-server/typescript/<Name>.ts`. Files of names no longer generated are removed, so the
 * directories always hold exactly the generated set (the drift test checks the same).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateSchemaFiles } from '../src/protocols/app-server-v1/schema/schema-files';

const SCHEMA_ROOT = resolve(__dirname, '..', 'schema', 'app-server');

function writeDirectory(directory: string, files: Record<string, string>): void {
  mkdirSync(directory, { recursive: true });
  for (const stale of readdirSync(directory)) {
    if (!Object.prototype.hasOwnProperty.call(files, stale)) rmSync(join(directory, stale));
  }
  for (const [fileName, text] of Object.entries(files)) writeFileSync(join(directory, fileName), text);
}

const generated = generateSchemaFiles();
const jsonFiles = Object.fromEntries(
  Object.entries(generated.jsonSchema).map(([name, text]) => [`${name}.json`, text]),
);
writeDirectory(join(SCHEMA_ROOT, 'json'), jsonFiles);
writeDirectory(join(SCHEMA_ROOT, 'typescript'), generated.typescript);
process.stderr.write(
  `wrote ${Object.keys(jsonFiles).length} JSON schemas and ${Object.keys(generated.typescript).length} TypeScript files to ${SCHEMA_ROOT}\n`,
);
