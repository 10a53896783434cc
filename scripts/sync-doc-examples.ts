/**
 * Rewrites the marked code blocks of the guides from docs/examples/*.ts (see
 * scripts/doc-examples/example-blocks.ts):
 *
 *   npx ts-node --transpile-only scripts/sync-doc-examples.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { syncExampleBlocks } from './doc-examples/example-blocks';

const REPOSITORY = resolve(__dirname, '..');
const DOCS = join(REPOSITORY, 'docs');

for (const name of readdirSync(DOCS).filter((file) => file.endsWith('.md'))) {
  const path = join(DOCS, name);
  const before = readFileSync(path, 'utf8');
  const after = syncExampleBlocks(REPOSITORY, before);
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`updated ${name}`);
  }
}
