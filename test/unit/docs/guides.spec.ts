/**
 * The guides cannot rot silently: every code block marked `<!-- example: … -->` equals the compiled
 * example it mirrors (scripts/doc-examples/example-blocks.ts), every example file is shown by some
 * guide, and every relative link and `#anchor` in the docs resolves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expectedCode, findExampleBlocks } from '../../../scripts/doc-examples/example-blocks';

const REPOSITORY = resolve(__dirname, '../../..');
const DOCS = join(REPOSITORY, 'docs');
const GUIDES = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .map((name) => join(DOCS, name));
const LINKED_DOCUMENTS = [...GUIDES, join(DOCS, 'transcripts', 'README.md'), join(REPOSITORY, 'README.md')];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (inFence || heading === null) continue;
    anchors.add(
      heading[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}

/** Link targets outside code fences and inline code. */
function linksOf(markdown: string): string[] {
  const links: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push(match[1]);
  }
  return links;
}

describe('docs guides', () => {
  it.each(GUIDES.map((path) => [relative(REPOSITORY, path), path]))(
    '%s: example blocks equal their compiled sources',
    (_name, path) => {
      for (const block of findExampleBlocks(readFileSync(path, 'utf8'))) {
        const where = `${block.file}${block.region ? `#${block.region}` : ''} (run scripts/sync-doc-examples.ts)`;
        expect({ where, code: block.code }).toEqual({ where, code: expectedCode(REPOSITORY, block) });
      }
    },
  );

  it('shows every example file in some guide', () => {
    const shown = new Set(
      GUIDES.flatMap((path) => findExampleBlocks(readFileSync(path, 'utf8')).map((block) => block.file)),
    );
    const examples = readdirSync(join(DOCS, 'examples'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `docs/examples/${name}`);
    expect(examples.filter((file) => !shown.has(file))).toEqual([]);
  });

  it.each(LINKED_DOCUMENTS.map((path) => [relative(REPOSITORY, path), path]))(
    '%s: relative links and anchors resolve',
    (_name, path) => {
      const markdown = readFileSync(path, 'utf8');
      const broken: string[] = [];
      for (const link of linksOf(markdown)) {
        if (/^[a-z]+:/i.test(link)) continue;
        const [target, anchor] = link.split('#');
        const file = target === '' ? path : resolve(dirname(path), target);
        if (!existsSync(file)) {
          broken.push(link);
          continue;
        }
        if (
          anchor !== undefined &&
          file.endsWith('.md') &&
          !anchorsOf(readFileSync(file, 'utf8')).has(anchor)
        ) {
          broken.push(link);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});
