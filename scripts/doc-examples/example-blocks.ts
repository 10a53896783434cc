/**
 * Code blocks of the guides that mirror the compiled examples in docs/examples/. A block is marked
 *
 *   <!-- example: docs/examples/runtime-quickstart.ts#quickstart -->
 *   ```ts
 *   …the lines between `// #region quickstart` and `// #endregion quickstart` of that file…
 *   ```
 *
 * (without `#name` the whole file). The docs unit test fails when a block differs from its source;
 * `scripts/sync-doc-examples.ts` rewrites the blocks from the sources.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const MARKER = /^<!-- example: (\S+?)(?:#([\w-]+))? -->$/;

export interface ExampleBlock {
  /** Repository-relative path of the example file. */
  file: string;
  region: string | null;
  /** The code currently inside the fence. */
  code: string;
  /** Line index of the marker in the markdown. */
  markerLine: number;
  /** Line indexes of the opening and closing fence. */
  fenceStart: number;
  fenceEnd: number;
}

/** Every marked block of a markdown text; throws when a marker is not followed by a fence. */
export function findExampleBlocks(markdown: string): ExampleBlock[] {
  const lines = markdown.split('\n');
  const blocks: ExampleBlock[] = [];
  lines.forEach((line, index) => {
    const match = MARKER.exec(line.trim());
    if (match === null) return;
    const fenceStart = index + 1;
    if (!/^```\w*$/.test(lines[fenceStart] ?? '')) {
      throw new Error(`line ${index + 1}: an example marker must be followed by a code fence`);
    }
    const fenceEnd = lines.findIndex((candidate, at) => at > fenceStart && candidate === '```');
    if (fenceEnd === -1) throw new Error(`line ${index + 1}: unterminated code fence`);
    blocks.push({
      file: match[1],
      region: match[2] ?? null,
      code: lines.slice(fenceStart + 1, fenceEnd).join('\n'),
      markerLine: index,
      fenceStart,
      fenceEnd,
    });
  });
  return blocks;
}

/** The lines of `region` in `source` (between its #region / #endregion comments), or the whole file. */
export function extractRegion(source: string, region: string | null): string {
  const lines = source.replace(/\n$/, '').split('\n');
  if (region === null) return lines.join('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const end = lines.findIndex((line) => line.trim() === `// #endregion ${region}`);
  if (start === -1 || end <= start) throw new Error(`region ${region} not found`);
  return lines.slice(start + 1, end).join('\n');
}

export function expectedCode(repositoryRoot: string, block: ExampleBlock): string {
  return extractRegion(readFileSync(join(repositoryRoot, block.file), 'utf8'), block.region);
}

/** The markdown with every marked block replaced by its source. */
export function syncExampleBlocks(repositoryRoot: string, markdown: string): string {
  const lines = markdown.split('\n');
  for (const block of findExampleBlocks(markdown).reverse()) {
    lines.splice(
      block.fenceStart + 1,
      block.fenceEnd - block.fenceStart - 1,
      ...expectedCode(repositoryRoot, block).split('\n'),
    );
  }
  return lines.join('\n');
}
