/**
 * The help text the README and the CLI reference print is the CLI's own (src/cli/help-text.ts,
 * what `vv-agent --help` writes), so neither can fall behind a new option.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HELP_TEXT } from '../../../src/cli/help-text';

const REPOSITORY = resolve(__dirname, '../../..');

/** The body of the `text` fence that follows `opener` in `file`. */
function blockAfter(file: string, opener: string): string {
  const markdown = readFileSync(join(REPOSITORY, file), 'utf8');
  const at = markdown.indexOf(opener);
  if (at === -1) throw new Error(`${file} has no ${JSON.stringify(opener)}`);
  const start = at + opener.length;
  return markdown.slice(start, markdown.indexOf('\n```', start));
}

describe('help text in the docs', () => {
  it.each([
    ['README.md', '## CLI reference\n\n```text\n'],
    ['docs/cli-reference.md', '## Help text\n\n```text\n$ vv-agent --help\n'],
  ])('%s shows the help text vv-agent --help prints', (file, opener) => {
    expect(blockAfter(file, opener)).toBe(HELP_TEXT.trimEnd());
  });
});
