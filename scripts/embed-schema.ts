/**
 * Build step (`npm run build`): embeds the committed schema files into `dist` next to the compiled
 * schema module, so `schema/export` and the CLI schema commands serve the bytes the build saw
 * (docs/spec/protocol.md §11.1).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readSchemaDirectory } from '../src/protocols/app-server-v1/schema/committed-schema-files';

const root = resolve(__dirname, '..');
const files = readSchemaDirectory(join(root, 'schema', 'app-server'));
const target = join(root, 'dist', 'protocols', 'app-server-v1', 'schema', 'embedded-schema-files.json');
writeFileSync(target, JSON.stringify(files));
process.stderr.write(
  `embedded ${Object.keys(files.jsonSchema).length} JSON schemas and ${Object.keys(files.typescript).length} TypeScript files into ${target}\n`,
);
