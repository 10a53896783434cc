import { quotePattern, truncateResultText } from '../../../../../src/runtime/tools/builtins/search-report';
import {
  callTool,
  expectError,
  makeContext,
  makeWorkspace,
  type CallResult,
  type TempWorkspace,
} from './builtin-test-kit';

describe('quotePattern', () => {
  it.each([
    ['foo', "'foo'"],
    ["it's", `"it's"`],
    [`it's "x"`, `'it\\'s "x"'`],
    ['say "hi"', `'say "hi"'`],
    ['a\\d+', "'a\\\\d+'"],
    ['tab\there\nnl\rcr', "'tab\\there\\nnl\\rcr'"],
  ])('%j → %s', (pattern, quoted) => expect(quotePattern(pattern)).toBe(quoted));
});

describe('truncateResultText', () => {
  it('keeps short text', () => {
    expect(truncateResultText('a\nb', 2, 1)).toEqual({ text: 'a\nb', truncated: false });
  });

  it('cuts to 500 lines with the footer', () => {
    const text = Array.from({ length: 600 }, (_, index) => `line ${index}`).join('\n');
    const result = truncateResultText(text, 600, 3);
    const kept = Array.from({ length: 500 }, (_, index) => `line ${index}`).join('\n');
    expect(result.truncated).toBe(true);
    expect(result.text).toBe(
      `${kept}\n\n--- TRUNCATED ---\nShown: 500 lines, ${kept.length} characters\nTotal matches: 600 in 3 files\n` +
        'Use a narrower pattern/path/glob/type/head_limit for more focused output.',
    );
  });

  it('cuts to 30 000 characters, preferring a line end near the limit', () => {
    const text = `${'x'.repeat(29_000)}\n${'y'.repeat(2_000)}`;
    expect(
      truncateResultText(text, 1, 1).text.startsWith(
        `${'x'.repeat(29_000)}\n\n--- TRUNCATED ---\nShown: 1 lines, 29000 characters\n`,
      ),
    ).toBe(true);
    const oneLine = 'z'.repeat(40_000);
    expect(truncateResultText(oneLine, 1, 1).text).toContain('Shown: 1 lines, 30000 characters');
  });
});

// Every call starts a worker thread; on a loaded 2-core CI machine that can take seconds.
jest.setTimeout(20_000);

describe('search_files', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
    await ws.write('src/app.ts', 'import x\nconst Foo = 1;\nconst foo = 2;\n// TODO later\n');
    await ws.write('src/util.py', "def foo():\n    return 'foo'\n");
    await ws.write('README.md', 'Foo bar\n');
    await ws.write('.hidden/h.txt', 'foo\n');
    await ws.write('node_modules/m.js', 'foo\n');
    await ws.write('config/api_token.json', '"foo"\n');
    await ws.write('image.png', 'foo\n');
    await ws.write('blob.dat', Buffer.from('foo\0bar'));
  });
  afterEach(() => ws.remove());

  const search = (args: Record<string, unknown>): Promise<CallResult> =>
    callTool('search_files', makeContext(ws.root), args);

  it('lists matching files, smart-case insensitive for a lower-case pattern', async () => {
    const result = await search({ pattern: 'foo' });
    expect(result.status).toBe('success');
    expect(result.content).toBe("Found 3 files matching pattern 'foo'\nREADME.md\nsrc/app.ts\nsrc/util.py");
    expect(result.metadata).toMatchObject({
      output_mode: 'files_with_matches',
      summary: { files_searched: 3, files_with_matches: 3, total_matches: 5 },
      returned_count: 3,
      truncated: false,
      sensitive_files_omitted: 1,
    });
  });

  it('is case-sensitive when the pattern has an upper-case letter, unless overridden', async () => {
    expect((await search({ pattern: 'Foo' })).content).toBe(
      "Found 2 files matching pattern 'Foo'\nREADME.md\nsrc/app.ts",
    );
    expect((await search({ pattern: 'Foo', case_sensitive: false })).content).toContain('src/util.py');
    expect((await search({ pattern: 'foo', case_sensitive: true })).content).toBe(
      "Found 2 files matching pattern 'foo'\nsrc/app.ts\nsrc/util.py",
    );
  });

  it('counts matches per file', async () => {
    expect((await search({ pattern: 'foo', output_mode: 'count' })).content).toBe(
      "Match counts for pattern 'foo'\nREADME.md: 1\nsrc/app.ts: 2\nsrc/util.py: 2\nTotal: 5 matches in 3 files",
    );
  });

  it('shows content rows with line numbers and context markers', async () => {
    expect((await search({ pattern: 'Foo', output_mode: 'content', path: 'src', c: 1 })).content).toBe(
      "Found 1 matches in 1 files for pattern 'Foo'\nFile: src/app.ts\n  -1: import x\n  2: const Foo = 1;\n  -3: const foo = 2;",
    );
    expect((await search({ pattern: 'TODO', output_mode: 'content', b: 1, a: 5 })).content).toBe(
      "Found 1 matches in 1 files for pattern 'TODO'\nFile: src/app.ts\n  -3: const foo = 2;\n  4: // TODO later",
    );
    expect((await search({ pattern: 'return', output_mode: 'content', n: false })).content).toBe(
      "Found 1 matches in 1 files for pattern 'return'\nFile: src/util.py\n      return 'foo'",
    );
  });

  it('matches across lines in multiline mode', async () => {
    expect(
      (await search({ pattern: 'foo\\(\\):\\n\\s+return', output_mode: 'content', multiline: true })).content,
    ).toBe(
      "Found 1 matches in 1 files for pattern 'foo\\\\(\\\\):\\\\n\\\\s+return'\nFile: src/util.py\n  1: foo():\n    return",
    );
  });

  it('treats the pattern as text when literal', async () => {
    await ws.write('dots.txt', 'a.b\naxb\n');
    expect((await search({ pattern: 'a.b', output_mode: 'count', path: 'dots.txt' })).content).toContain(
      'dots.txt: 2',
    );
    expect(
      (await search({ pattern: 'a.b', output_mode: 'count', path: 'dots.txt', literal: true })).content,
    ).toContain('dots.txt: 1');
    expect((await search({ pattern: '(x', literal: true, path: 'dots.txt' })).content).toBe(
      "Found 0 files matching pattern '(x'\nNo matches found.",
    );
  });

  it('filters by type and glob', async () => {
    expect((await search({ pattern: 'foo', type: ' PY ' })).content).toBe(
      "Found 1 files matching pattern 'foo'\nsrc/util.py",
    );
    expect((await search({ pattern: 'foo', glob: '**/*.ts' })).content).toBe(
      "Found 1 files matching pattern 'foo'\nsrc/app.ts",
    );
    expect((await search({ pattern: 'foo', glob: '*.md' })).content).toBe(
      "Found 1 files matching pattern 'foo'\nREADME.md",
    );
  });

  it('paginates rows with offset and head_limit and says so', async () => {
    const limited = await search({ pattern: 'foo', head_limit: 1, offset: 1 });
    expect(limited.content).toBe("Found 3 files matching pattern 'foo'\nShowing first 1 files.\nsrc/app.ts");
    expect(limited.metadata).toMatchObject({ head_limited: true, truncated: true, returned_count: 1 });
    expect((await search({ pattern: 'foo', output_mode: 'count', head_limit: 2 })).content).toBe(
      "Match counts for pattern 'foo'\nShowing first 2 files.\nREADME.md: 1\nsrc/app.ts: 2\nTotal: 5 matches in 3 files",
    );
    expect((await search({ pattern: 'foo', output_mode: 'content', head_limit: 2 })).content).toBe(
      "Found 5 matches in 3 files for pattern 'foo'\nShowing first 2 rows.\nFile: README.md\n  1: Foo bar\nFile: src/app.ts\n  2: const Foo = 1;",
    );
    expect((await search({ pattern: 'foo', offset: 3 })).content).toBe(
      "Found 3 files matching pattern 'foo'\nNo matches found.",
    );
  });

  it('has no row cap with head_limit 0 but truncates the text at 500 lines', async () => {
    await ws.write('many/lines.txt', 'hit\n'.repeat(700));
    const result = await search({ pattern: 'hit', output_mode: 'content', head_limit: 0, path: 'many' });
    expect(result.content).toContain('\n\n--- TRUNCATED ---\nShown: 500 lines, ');
    expect(result.content).toContain('Total matches: 700 in 1 files');
    expect(result.metadata).toMatchObject({ content_truncated: true, truncated: true, returned_count: 700 });
  });

  it('searches hidden, ignored and sensitive files only on request', async () => {
    const everything = await search({
      pattern: 'foo',
      include_hidden: true,
      include_ignored: true,
      include_sensitive: true,
    });
    expect(everything.content).toBe(
      "Found 6 files matching pattern 'foo'\n.hidden/h.txt\nREADME.md\nconfig/api_token.json\nnode_modules/m.js\nsrc/app.ts\nsrc/util.py",
    );
  });

  it('never searches binary files', async () => {
    const result = await search({ pattern: 'bar', include_ignored: true });
    expect(result.content).toBe("Found 1 files matching pattern 'bar'\nREADME.md");
  });

  it('searches a single file given as path, even a hidden one, but not a sensitive one', async () => {
    expect((await search({ pattern: 'foo', path: '.hidden/h.txt' })).content).toBe(
      "Found 1 files matching pattern 'foo'\n.hidden/h.txt",
    );
    const sensitive = await search({ pattern: 'foo', path: 'config/api_token.json' });
    expect(sensitive.content).toBe("Found 0 files matching pattern 'foo'\nNo matches found.");
    expect(sensitive.metadata).toMatchObject({ sensitive_files_omitted: 1 });
  });

  it('reports no matches in content mode', async () => {
    expect((await search({ pattern: 'zzz', output_mode: 'content' })).content).toBe(
      "Found 0 matches in 0 files for pattern 'zzz'\nNo matches found.",
    );
  });

  it.each([
    [{ pattern: '   ' }, 'Search pattern is required'],
    [
      { pattern: 'x', type: 'cobol' },
      'Unsupported file type: cobol. Supported types: c, cpp, css, dockerfile, go, html, ini, java, js, json, log, makefile, md, php, py, rb, rust, sh, sql, ts, txt, xml, yaml',
    ],
  ])('%j → invalid_arguments', async (args, message) => {
    expectError(await search(args), 'invalid_arguments', message);
  });

  it('rejects an invalid regular expression', async () => {
    const content = expectError(await search({ pattern: '(unclosed' }), 'invalid_arguments');
    expect(content.error).toMatch(/^Invalid regular expression: .*Unterminated group/);
    expect(content.error).not.toMatch(/^Invalid regular expression: Invalid regular expression/);
  });

  it('rejects missing and escaping paths', async () => {
    expectError(await search({ pattern: 'x', path: 'nope' }), 'path_not_found', 'path not found: nope');
    expectError(
      await search({ pattern: 'x', path: '/' }),
      'path_escapes_workspace',
      'Path escapes workspace: /',
    );
  });
});
