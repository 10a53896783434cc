/**
 * The contract lives in the repository (docs/spec/, issue 37): the copy matches the shared
 * source it is synced from (`npm run spec:sync`), and every `docs/spec/<file>.md §n` cited in code
 * names a file and a numbered section that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const SPEC = join(ROOT, 'docs/spec');
const SHARED_SPEC = resolve(ROOT, '../shared/spec');
const CODE_FOLDERS = ['src', 'test', 'scripts', 'bench'];
const CITATION = /docs\/spec\/([a-z-]+\.md) §(\d+(?:\.\d+)*)/g;

function codeFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : codeFiles(path);
    return /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/**
 * What `§n` can name in a spec file: a heading's number (`## 3.` → 3, `### 3.12 …` → 3.12), or an
 * item of a numbered list under a heading (`6.` under `## 6.` … → 6.2 for its second item).
 */
function citableSections(text: string): Set<string> {
  const numbers = new Set<string>();
  let heading: string | null = null;
  for (const line of text.split('\n')) {
    const title = /^#{2,6} (\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (title) {
      heading = title[1];
      numbers.add(heading);
      continue;
    }
    const item = /^(\d+)\. /.exec(line);
    if (item && heading !== null) numbers.add(`${heading}.${item[1]}`);
  }
  return numbers;
}

describe('docs/spec: the contract in the repository', () => {
  const specFiles = readdirSync(SPEC).filter((name) => name.endsWith('.md'));

  (existsSync(SHARED_SPEC) ? it : it.skip)('is the same as ../shared/spec, file for file', () => {
    const shared = readdirSync(SHARED_SPEC).filter((name) => name.endsWith('.md'));
    expect(specFiles.sort()).toEqual(shared.sort());
    const stale = shared.filter(
      (name) => readFileSync(join(SHARED_SPEC, name), 'utf8') !== readFileSync(join(SPEC, name), 'utf8'),
    );
    expect(stale).toEqual([]);
  });

  it('every citation in code names a spec file and a section that exist', () => {
    const sections = new Map(
      specFiles.map((name) => [name, citableSections(readFileSync(join(SPEC, name), 'utf8'))]),
    );
    const broken: string[] = [];
    let citations = 0;
    for (const file of CODE_FOLDERS.flatMap((folder) => codeFiles(join(ROOT, folder)))) {
      for (const match of readFileSync(file, 'utf8').matchAll(CITATION)) {
        citations++;
        const [, spec, section] = match;
        if (!sections.get(spec)?.has(section))
          broken.push(`${relative(ROOT, file)}: docs/spec/${spec} §${section}`);
      }
    }
    expect(citations).toBeGreaterThan(500);
    expect(broken).toEqual([]);
  });
});
