import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { FILE_BASELINES_STATE_KEY } from '../../../../../src/runtime/tools/builtins/index';
import { readPage } from '../../../../../src/runtime/tools/builtins/read-page';
import type { ReadCursor } from '../../../../../src/runtime/tools/types';
import { callTool, expectError, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

describe('readPage', () => {
  const text = 'one\ntwo\nthree\nfour\n';
  it.each([
    [{ kind: 'lines', startLine: 1, showLineNumbers: false }, 'one\ntwo\nthree\nfour\n'],
    [{ kind: 'lines', startLine: 2, endLine: 3, showLineNumbers: false }, 'two\nthree'],
    [{ kind: 'lines', startLine: 3, showLineNumbers: true }, '3: three\n4: four\n'],
    [{ kind: 'lines', startLine: 4, endLine: 4, showLineNumbers: true }, '4: four'],
    [{ kind: 'lines', startLine: 9, showLineNumbers: false }, ''],
    [{ kind: 'offset', offset: 5, showLineNumbers: false }, 'wo\nthree\nfour\n'],
    [{ kind: 'offset', offset: 4, showLineNumbers: true }, '2: two\n3: three\n4: four\n'],
    [{ kind: 'offset', offset: 5, showLineNumbers: true }, 'wo\n3: three\n4: four\n'],
  ] as const)('%j → %j', (selection, expected) => {
    const page = readPage(text, selection);
    expect(page.content).toBe(expected);
    expect(page.truncated).toBe(false);
  });

  it('counts line-number prefixes against the character budget', () => {
    const page = readPage('x'.repeat(12_000), { kind: 'lines', startLine: 1, showLineNumbers: true });
    expect(page.content).toBe(`1: ${'x'.repeat(11_997)}`);
    expect(page.truncated).toBe(true);
    expect(page.nextOffset).toBe(11_997);
    expect(page.originalBytes).toBe(12_003);
  });
});

describe('read_file', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.remove());

  const baselines = (ctx: ReturnType<typeof makeContext>) => ctx.sharedState[FILE_BASELINES_STATE_KEY];

  it('returns the whole text as content and records a full baseline', async () => {
    await ws.write('notes/a.md', 'alpha\nbeta\n');
    const ctx = makeContext(ws.root);
    const result = await callTool('read_file', ctx, { path: 'notes/a.md' });
    expect(result).toEqual({
      content: 'alpha\nbeta\n',
      status: 'success',
      directive: 'continue',
      error_code: null,
      metadata: {},
    });
    expect(baselines(ctx)).toEqual({
      'notes/a.md': { sha256: sha256('alpha\nbeta\n'), is_partial: false, source: 'read_file' },
    });
  });

  it('skips a BOM (but hashes the bytes with it) and numbers lines on request', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first\nsecond')]);
    await ws.write('bom.txt', bytes);
    const ctx = makeContext(ws.root);
    const result = await callTool('read_file', ctx, { path: 'bom.txt', show_line_numbers: true });
    expect(result.content).toBe('1: first\n2: second');
    expect(baselines(ctx)).toEqual({
      'bom.txt': { sha256: sha256(bytes), is_partial: false, source: 'read_file' },
    });
  });

  it('reads a line range and records a partial baseline', async () => {
    await ws.write('r.txt', 'a\nb\nc\nd\n');
    const ctx = makeContext(ws.root);
    const result = await callTool('read_file', ctx, { path: 'r.txt', start_line: 2, end_line: 3 });
    expect(result.content).toBe('b\nc');
    expect(result.truncated).toBeUndefined();
    expect(baselines(ctx)).toMatchObject({ 'r.txt': { is_partial: true } });
  });

  it('cuts at 12 000 characters with a read_limit cursor, then continues from it', async () => {
    const text = `${'a'.repeat(11_999)}😀bc`;
    await ws.write('chars.txt', text);
    const ctx = makeContext(ws.root);
    const first = await callTool('read_file', ctx, { path: './chars.txt' });
    expect(first.status).toBe('success');
    expect(first.content).toBe(`${'a'.repeat(11_999)}😀`);
    expect(first.truncated).toBe(true);
    expect(first.truncation_reason).toBe('read_limit');
    const cursor = first.cursor as ReadCursor;
    expect(cursor).toEqual({
      kind: 'read_file',
      path: 'chars.txt',
      offset_chars: 12_000,
      sha256: sha256(text),
    });
    expect(first.original_bytes).toBe(Buffer.byteLength(text));
    expect(first.visible_bytes).toBe(Buffer.byteLength(first.content));
    expect(baselines(ctx)).toMatchObject({ 'chars.txt': { is_partial: true } });

    const second = await callTool('read_file', ctx, { path: 'chars.txt', cursor });
    expect(second.content).toBe('bc');
    expect(second.truncated).toBeUndefined();
    expect(second.cursor).toBeUndefined();
  });

  it('cuts at 2 000 lines and keeps numbering across the cursor', async () => {
    const text = 'x\n'.repeat(2_500);
    await ws.write('lines.txt', text);
    const ctx = makeContext(ws.root);
    const first = await callTool('read_file', ctx, { path: 'lines.txt' });
    expect(first.content).toBe('x\n'.repeat(2_000));
    expect(first.truncated).toBe(true);
    const cursor = first.cursor as ReadCursor;
    expect(cursor.offset_chars).toBe(4_000);
    const second = await callTool('read_file', ctx, { path: 'lines.txt', show_line_numbers: true, cursor });
    const shown = second.content.split('\n');
    expect(shown[0]).toBe('2001: x');
    expect(shown[499]).toBe('2500: x');
    expect(shown).toHaveLength(501);
    expect(second.truncated).toBeUndefined();
  });

  describe('errors', () => {
    const cursorFor = (content: string, offset: number, cursorPath = 'c.txt'): ReadCursor => ({
      kind: 'read_file',
      path: cursorPath,
      offset_chars: offset,
      sha256: sha256(content),
    });

    it.each([
      [{ path: 'missing.txt' }, 'file_not_found', 'file not found: missing.txt'],
      [{ path: '.' }, 'file_not_found', 'file not found: .'],
      [{ path: '../x' }, 'path_escapes_workspace', 'Path escapes workspace: ../x'],
    ])('%j → %s', async (args, code, message) => {
      expectError(await callTool('read_file', makeContext(ws.root), args), code, message);
    });

    it('rejects invalid UTF-8 with unsupported_encoding', async () => {
      await ws.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      expectError(
        await callTool('read_file', makeContext(ws.root), { path: 'latin1.txt' }),
        'unsupported_encoding',
        'Unsupported file encoding for read_file.',
      );
    });

    it('rejects a cursor combined with a line range', async () => {
      await ws.write('c.txt', 'abc');
      expectError(
        await callTool('read_file', makeContext(ws.root), {
          path: 'c.txt',
          start_line: 1,
          cursor: cursorFor('abc', 1),
        }),
        'invalid_arguments',
        '`cursor` is incompatible with `start_line` and `end_line`',
      );
    });

    it('rejects a cursor for another path', async () => {
      await ws.write('c.txt', 'abc');
      await ws.write('other.txt', 'abc');
      expectError(
        await callTool('read_file', makeContext(ws.root), {
          path: 'c.txt',
          cursor: cursorFor('abc', 1, 'other.txt'),
        }),
        'cursor_path_mismatch',
        'cursor path does not match requested path',
      );
    });

    it('accepts a cursor path spelled differently but naming the same file', async () => {
      await ws.write('c.txt', 'abc');
      const result = await callTool('read_file', makeContext(ws.root), {
        path: 'c.txt',
        cursor: cursorFor('abc', 1, `${ws.root}/./c.txt`),
      });
      expect(result.content).toBe('bc');
    });

    it('rejects a cursor whose file changed since', async () => {
      await ws.write('c.txt', 'abc');
      expectError(
        await callTool('read_file', makeContext(ws.root), { path: 'c.txt', cursor: cursorFor('abX', 1) }),
        'stale_cursor',
        'source changed after cursor was issued',
      );
    });

    it('rejects an offset beyond the text but accepts one at its end', async () => {
      await ws.write('c.txt', 'abc');
      expectError(
        await callTool('read_file', makeContext(ws.root), { path: 'c.txt', cursor: cursorFor('abc', 4) }),
        'cursor_offset_invalid',
        'cursor offset is outside the source',
      );
      const atEnd = await callTool('read_file', makeContext(ws.root), {
        path: 'c.txt',
        cursor: cursorFor('abc', 3),
      });
      expect(atEnd.content).toBe('');
    });

    it('rejects a cursor path outside the workspace', async () => {
      await ws.write('c.txt', 'abc');
      await fs.writeFile(path.join(ws.outside, 'c.txt'), 'abc');
      expectError(
        await callTool('read_file', makeContext(ws.root), {
          path: 'c.txt',
          cursor: cursorFor('abc', 1, '../outside/c.txt'),
        }),
        'path_escapes_workspace',
      );
    });
  });
});
