/**
 * Dependencies point one way (docs/architecture.md): every relative import between top-level
 * folders of src/ must be an allowed edge. A new edge is a design decision — change the table and
 * the document together.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const SRC = join(__dirname, '../../../src');

/** folder → the folders it may import from. */
const ALLOWED: Record<string, readonly string[]> = {
  runtime: [],
  core: ['runtime'],
  persistence: ['core', 'runtime'],
  rpc: ['runtime'],
  transports: ['rpc', 'runtime'],
  protocols: ['rpc', 'core', 'runtime'],
  client: ['protocols', 'rpc', 'core', 'runtime'],
  nest: ['protocols', 'transports', 'persistence', 'rpc', 'core', 'runtime'],
  cli: ['nest', 'client', 'protocols', 'transports', 'persistence', 'rpc', 'core', 'runtime'],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function folderOf(path: string): string {
  return relative(SRC, path).split('/')[0];
}

describe('source layering', () => {
  it('imports only along the allowed folder edges, so no folder cycle exists', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = folderOf(file);
      const allowed = ALLOWED[from];
      if (allowed === undefined) continue; // package entry points (index.ts, main.ts)
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const to = folderOf(normalize(join(dirname(file), match[1])));
        if (to !== from && !allowed.includes(to)) violations.push(`${relative(SRC, file)} -> ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('knows every top-level folder of src', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
