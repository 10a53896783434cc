import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import {
  callTool,
  expectError,
  makeContext,
  makeWorkspace,
  parseContent,
  setMtime,
  type TempWorkspace,
} from './builtin-test-kit';

const IGNORED_MESSAGE =
  'Common dependency/cache directories are summarized by default. List those directories explicitly when needed.';
const SCAN_MESSAGE =
  'Listing stopped early due to scan limit. Narrow `path`/`glob` or increase `scan_limit` for more complete results.';

describe('find_files', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
    await setMtime(await ws.write('src/a.ts', 'a'), 1_000);
    await setMtime(await ws.write('src/b.py', 'b'), 3_000);
    await setMtime(await ws.write('README.md', 'r'), 2_000);
    await setMtime(await ws.write('zeta.md', 'z'), 2_000);
    await ws.write('.env', 'SECRET=1');
    await ws.write('.hidden/x.txt', 'x');
    await ws.write('config/api_token.json', '{}');
    await ws.write('secrets.yaml', 'k: v');
    await ws.write('node_modules/pkg/index.js', 'js');
    await ws.write('dist/out.js', 'js');
    await ws.write('Build/x.txt', 'x');
  });
  afterEach(() => ws.remove());

  const find = async (args: Record<string, unknown>) => callTool('find_files', makeContext(ws.root), args);

  it('lists visible, non-ignored, non-sensitive files newest first with ties by path', async () => {
    const result = await find({});
    expect(result.status).toBe('success');
    expect(result.content).toBe(
      JSON.stringify({
        files: ['src/b.py', 'README.md', 'zeta.md', 'src/a.ts'],
        count: 4,
        returned_count: 4,
        truncated: false,
        max_results: 100,
        offset: 0,
        sort: 'modified_desc',
        ignored_roots: [{ path: 'Build' }, { path: 'dist' }, { path: 'node_modules' }],
        message: IGNORED_MESSAGE,
        sensitive_files_omitted: 2,
      }),
    );
  });

  it('sorts by path with path_asc', async () => {
    expect(parseContent(await find({ sort: 'path_asc' })).files).toEqual([
      'README.md',
      'src/a.ts',
      'src/b.py',
      'zeta.md',
    ]);
  });

  it('includes hidden files on request (sensitive ones stay out)', async () => {
    const content = parseContent(await find({ include_hidden: true, sort: 'path_asc' }));
    expect(content.files).toEqual(['.hidden/x.txt', 'README.md', 'src/a.ts', 'src/b.py', 'zeta.md']);
    expect(content.sensitive_files_omitted).toBe(3);
  });

  it('includes ignored roots on request and then reports none', async () => {
    const content = parseContent(await find({ include_ignored: true, sort: 'path_asc' }));
    expect(content.files).toEqual([
      'Build/x.txt',
      'README.md',
      'dist/out.js',
      'node_modules/pkg/index.js',
      'src/a.ts',
      'src/b.py',
      'zeta.md',
    ]);
    expect(content).not.toHaveProperty('ignored_roots');
    expect(content).not.toHaveProperty('message');
  });

  it('includes sensitive files on request', async () => {
    const content = parseContent(await find({ include_sensitive: true, sort: 'path_asc' }));
    // Code-unit order: upper case sorts before lower case.
    expect(content.files).toEqual([
      'README.md',
      'config/api_token.json',
      'secrets.yaml',
      'src/a.ts',
      'src/b.py',
      'zeta.md',
    ]);
    expect(content).not.toHaveProperty('sensitive_files_omitted');
  });

  it('lists an ignored root when asked for it explicitly', async () => {
    const content = parseContent(await find({ path: 'node_modules' }));
    expect(content.files).toEqual(['node_modules/pkg/index.js']);
    expect(content).not.toHaveProperty('ignored_roots');
  });

  it('lists an explicitly named hidden directory', async () => {
    expect(parseContent(await find({ path: '.hidden' })).files).toEqual(['.hidden/x.txt']);
  });

  it('matches the glob against the path relative to the search root', async () => {
    expect(parseContent(await find({ glob: '**/*.ts' })).files).toEqual(['src/a.ts']);
    expect(parseContent(await find({ glob: '*.md', sort: 'path_asc' })).files).toEqual([
      'README.md',
      'zeta.md',
    ]);
    expect(parseContent(await find({ path: 'src', glob: '*.py' })).files).toEqual(['src/b.py']);
  });

  it('paginates with offset and max_results', async () => {
    const content = parseContent(await find({ sort: 'path_asc', offset: 1, max_results: 2 }));
    expect(content).toMatchObject({
      files: ['src/a.ts', 'src/b.py'],
      count: 4,
      returned_count: 2,
      truncated: true,
      max_results: 2,
      offset: 1,
      remaining_count: 1,
    });
    const past = parseContent(await find({ offset: 10 }));
    expect(past).toMatchObject({ files: [], count: 4, returned_count: 0, truncated: false });
    expect(past).not.toHaveProperty('remaining_count');
  });

  it('clamps max_results to 1…5000', async () => {
    expect(parseContent(await find({ max_results: 0 })).max_results).toBe(1);
    expect(parseContent(await find({ max_results: 99_999 })).max_results).toBe(5_000);
  });

  it('stops at scan_limit (raised to max_results) and flags the count as an estimate', async () => {
    const raised = parseContent(await find({ path: 'src', scan_limit: 1, sort: 'path_asc' }));
    expect(raised).toMatchObject({ files: ['src/a.ts', 'src/b.py'], truncated: false });
    expect(raised).not.toHaveProperty('count_is_estimate');

    const content = parseContent(
      await find({ path: 'src', scan_limit: 1, max_results: 1, sort: 'path_asc' }),
    );
    expect(content).toEqual({
      files: ['src/a.ts'],
      count: 1,
      returned_count: 1,
      truncated: true,
      max_results: 1,
      offset: 0,
      sort: 'path_asc',
      count_is_estimate: true,
      scan_limit: 1,
      message: SCAN_MESSAGE,
    });
  });

  it('reports an early stop and ignored roots together in one message', async () => {
    const content = parseContent(await find({ scan_limit: 1, max_results: 1 }));
    expect(content).toMatchObject({ count_is_estimate: true, scan_limit: 1, truncated: true });
    expect(content.message).toBe(`${SCAN_MESSAGE} ${IGNORED_MESSAGE}`);
  });

  it('never lists symlinks leading outside and never enters symlinked directories', async () => {
    await fs.writeFile(path.join(ws.outside, 'leak.txt'), 'leak');
    await fs.symlink(path.join(ws.outside, 'leak.txt'), path.join(ws.root, 'src/leak.txt'));
    await fs.symlink(ws.outside, path.join(ws.root, 'src/outdir'));
    await fs.symlink(path.join(ws.root, 'README.md'), path.join(ws.root, 'src/readme-link.md'));
    expect(parseContent(await find({ path: 'src', sort: 'path_asc' })).files).toEqual([
      'src/a.ts',
      'src/b.py',
      'src/readme-link.md',
    ]);
  });

  it.each([
    [{ path: 'missing' }, 'path_not_found', 'path not found: missing'],
    [{ path: 'README.md' }, 'not_a_directory', 'not a directory: README.md'],
    [
      { pattern: '*.ts' },
      'invalid_arguments',
      '`glob` is required for file patterns; `pattern` is not supported',
    ],
    [{ path: '../outside' }, 'path_escapes_workspace', 'Path escapes workspace: ../outside'],
  ])('%j → %s', async (args, code, message) => {
    expectError(await find(args), code, message);
  });
});
