import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { FILE_BASELINES_STATE_KEY } from '../../../../../src/runtime/tools/builtins/index';
import { boundedUnifiedDiff } from '../../../../../src/runtime/tools/builtins/unified-diff';
import {
  callTool,
  expectError,
  makeContext,
  makeWorkspace,
  parseContent,
  type TempWorkspace,
} from './builtin-test-kit';

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

describe('boundedUnifiedDiff', () => {
  it('renders one hunk with three context lines', () => {
    const before = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const after = 'l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\n';
    expect(boundedUnifiedDiff('f.txt', before, after)).toEqual({
      diff: '--- f.txt\n+++ f.txt\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n',
      truncated: false,
      additions: 1,
      deletions: 1,
    });
  });

  it('marks a missing final newline and bounds the text', () => {
    expect(boundedUnifiedDiff('f', 'a', 'b').diff).toBe(
      '--- f\n+++ f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
    );
    const big = boundedUnifiedDiff('f', 'x\n', 'y\n'.repeat(10_000));
    expect(big.truncated).toBe(true);
    expect(big.diff).toHaveLength(12_000);
    expect(big.additions).toBe(10_000);
  });
});

describe('edit_file', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.remove());

  async function readThenEdit(file: string, text: string | Buffer, args: Record<string, unknown>) {
    await ws.write(file, text);
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: file });
    return { ctx, result: await callTool('edit_file', ctx, { path: file, ...args }) };
  }

  it('replaces a unique match, returns diff metadata and records a full edit baseline', async () => {
    const { ctx, result } = await readThenEdit('src/a.ts', 'const a = 1;\nconst b = 2;\n', {
      old_string: 'b = 2',
      new_string: 'b = 3',
    });
    expect(result.status).toBe('success');
    expect(result.content).toBe('{"ok":true,"path":"src/a.ts","replaced_count":1}');
    expect(result.metadata).toEqual({
      changed_files: ['src/a.ts'],
      diff: '--- src/a.ts\n+++ src/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n',
      diff_truncated: false,
      additions: 1,
      deletions: 1,
    });
    expect((await ws.read('src/a.ts')).toString()).toBe('const a = 1;\nconst b = 3;\n');
    expect(ctx.sharedState[FILE_BASELINES_STATE_KEY]).toEqual({
      'src/a.ts': { sha256: sha256('const a = 1;\nconst b = 3;\n'), is_partial: false, source: 'edit_file' },
    });
    // The edit's own baseline allows the next edit.
    const next = await callTool('edit_file', ctx, {
      path: 'src/a.ts',
      old_string: 'a = 1',
      new_string: 'a = 0',
    });
    expect(next.status).toBe('success');
  });

  it('accepts a partial read baseline', async () => {
    await ws.write('p.txt', 'one\ntwo\nthree\n');
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: 'p.txt', start_line: 2, end_line: 2 });
    const result = await callTool('edit_file', ctx, { path: 'p.txt', old_string: 'two', new_string: '2' });
    expect(result.status).toBe('success');
    expect((await ws.read('p.txt')).toString()).toBe('one\n2\nthree\n');
  });

  it('replaces every match with replace_all and never expands $ patterns', async () => {
    const { result } = await readThenEdit('r.txt', 'x-x-x', {
      old_string: 'x',
      new_string: '$&$1',
      replace_all: true,
    });
    expect(parseContent(result)).toEqual({ ok: true, path: 'r.txt', replaced_count: 3 });
    expect((await ws.read('r.txt')).toString()).toBe('$&$1-$&$1-$&$1');
  });

  it('retries with CRLF when the file uses CRLF and old_string has bare LF', async () => {
    const { result } = await readThenEdit('w.txt', 'a\r\nb\r\nc\r\n', {
      old_string: 'a\nb',
      new_string: 'x\ny',
    });
    expect(result.status).toBe('success');
    expect((await ws.read('w.txt')).toString()).toBe('x\r\ny\r\nc\r\n');
  });

  it('preserves a UTF-8 BOM', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await readThenEdit('b.txt', Buffer.concat([bom, Buffer.from('hello')]), {
      old_string: 'hello',
      new_string: 'bye',
    });
    expect(await ws.read('b.txt')).toEqual(Buffer.concat([bom, Buffer.from('bye')]));
  });

  it('requires a baseline', async () => {
    await ws.write('n.txt', 'abc');
    expectError(
      await callTool('edit_file', makeContext(ws.root), { path: 'n.txt', old_string: 'a', new_string: 'b' }),
      'file_not_read',
      'Read the file with read_file before editing.',
    );
    expect((await ws.read('n.txt')).toString()).toBe('abc');
  });

  it('rejects a file changed since it was read', async () => {
    await ws.write('n.txt', 'abc');
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: 'n.txt' });
    await ws.write('n.txt', 'abcd');
    expectError(
      await callTool('edit_file', ctx, { path: 'n.txt', old_string: 'a', new_string: 'b' }),
      'file_changed_since_read',
      'File changed since it was last read. Re-read it before editing.',
    );
    expect((await ws.read('n.txt')).toString()).toBe('abcd');
  });

  it.each([
    [{ old_string: '', new_string: 'x' }, 'old_string_empty', '`old_string` cannot be empty.'],
    [
      { old_string: 'same', new_string: 'same' },
      'no_changes',
      'No changes: old_string and new_string are identical.',
    ],
    [{ old_string: 'absent', new_string: 'x' }, 'old_string_not_found', '`old_string` not found in file.'],
  ])('%j → %s', async (args, code, message) => {
    const { result } = await readThenEdit('e.txt', 'same same', args);
    expectError(result, code, message);
    expect((await ws.read('e.txt')).toString()).toBe('same same');
  });

  it('reports an ambiguous match with match_count', async () => {
    const { result } = await readThenEdit('e.txt', 'aa aa aa', { old_string: 'aa', new_string: 'b' });
    const content = expectError(
      result,
      'old_string_not_unique',
      '`old_string` matched multiple locations; make it unique or set replace_all=true.',
    );
    expect(content.match_count).toBe(3);
    expect(Object.keys(content)).toEqual(['ok', 'error', 'error_code', 'match_count']);
  });

  it('reports missing files and directories as file_not_found', async () => {
    await fs.mkdir(path.join(ws.root, 'dir'));
    for (const file of ['missing.txt', 'dir']) {
      expectError(
        await callTool('edit_file', makeContext(ws.root), { path: file, old_string: 'a', new_string: 'b' }),
        'file_not_found',
        `file not found: ${file}`,
      );
    }
  });
});
