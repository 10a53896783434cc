import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { FILE_BASELINES_STATE_KEY } from '../../../../../src/runtime/tools/builtins/index';
import {
  callTool,
  expectError,
  makeContext,
  makeWorkspace,
  parseContent,
  type TempWorkspace,
} from './builtin-test-kit';

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

describe('write_file', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.remove());

  it('creates a new file and its parents without a baseline and records a full one', async () => {
    const ctx = makeContext(ws.root);
    const result = await callTool('write_file', ctx, { path: 'deep/er/new.txt', content: 'héllo 😀' });
    expect(result).toEqual({
      content:
        '{"ok":true,"path":"deep/er/new.txt","append":false,"leading_newline":false,"trailing_newline":false,"written_bytes":11,"written_chars":7}',
      status: 'success',
      directive: 'continue',
      error_code: null,
      metadata: { changed_files: ['deep/er/new.txt'] },
    });
    expect((await ws.read('deep/er/new.txt')).toString()).toBe('héllo 😀');
    expect(ctx.sharedState[FILE_BASELINES_STATE_KEY]).toEqual({
      'deep/er/new.txt': { sha256: sha256('héllo 😀'), is_partial: false, source: 'write_file' },
    });
  });

  it('refuses to overwrite an unread existing file', async () => {
    await ws.write('a.txt', 'original');
    expectError(
      await callTool('write_file', makeContext(ws.root), { path: 'a.txt', content: 'new' }),
      'file_not_read',
      'Read the full file with read_file before overwriting.',
    );
    expect((await ws.read('a.txt')).toString()).toBe('original');
  });

  it('refuses to overwrite after only a partial read', async () => {
    await ws.write('a.txt', 'one\ntwo\n');
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: 'a.txt', start_line: 2 });
    expectError(await callTool('write_file', ctx, { path: 'a.txt', content: 'new' }), 'file_not_read');
  });

  it('overwrites after a full read, and again on its own baseline', async () => {
    await ws.write('a.txt', 'one\n');
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: 'a.txt' });
    expect((await callTool('write_file', ctx, { path: 'a.txt', content: 'two\n' })).status).toBe('success');
    expect((await callTool('write_file', ctx, { path: 'a.txt', content: 'three\n' })).status).toBe('success');
    expect((await ws.read('a.txt')).toString()).toBe('three\n');
  });

  it('refuses to overwrite a file changed since it was read', async () => {
    await ws.write('a.txt', 'one\n');
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: 'a.txt' });
    await ws.write('a.txt', 'someone else\n');
    expectError(
      await callTool('write_file', ctx, { path: 'a.txt', content: 'mine' }),
      'file_changed_since_read',
      'File changed since it was last read. Re-read it before overwriting.',
    );
    expect((await ws.read('a.txt')).toString()).toBe('someone else\n');
  });

  it('appends without a baseline, with newline controls, and records a partial baseline', async () => {
    await ws.write('log.txt', 'first');
    const ctx = makeContext(ws.root);
    const result = await callTool('write_file', ctx, {
      path: 'log.txt',
      content: 'second',
      append: true,
      leading_newline: true,
      trailing_newline: true,
    });
    expect(parseContent(result)).toEqual({
      ok: true,
      path: 'log.txt',
      append: true,
      leading_newline: true,
      trailing_newline: true,
      written_bytes: 8,
      written_chars: 8,
    });
    expect((await ws.read('log.txt')).toString()).toBe('first\nsecond\n');
    expect(ctx.sharedState[FILE_BASELINES_STATE_KEY]).toEqual({
      'log.txt': { sha256: sha256('first\nsecond\n'), is_partial: true, source: 'write_file' },
    });
    // A partial append baseline neither allows an overwrite nor an edit.
    expectError(await callTool('write_file', ctx, { path: 'log.txt', content: 'x' }), 'file_not_read');
    expectError(
      await callTool('edit_file', ctx, { path: 'log.txt', old_string: 'first', new_string: 'zero' }),
      'file_not_read',
    );
  });

  it('keeps a full baseline when appending to a file the run already knows', async () => {
    await ws.write('log.txt', 'a\n');
    const ctx = makeContext(ws.root);
    await callTool('read_file', ctx, { path: 'log.txt' });
    await callTool('write_file', ctx, { path: 'log.txt', content: 'b\n', append: true });
    expect(ctx.sharedState[FILE_BASELINES_STATE_KEY]).toMatchObject({ 'log.txt': { is_partial: false } });
  });

  it('ignores newline controls when not appending', async () => {
    const content = parseContent(
      await callTool('write_file', makeContext(ws.root), {
        path: 'n.txt',
        content: 'x',
        leading_newline: true,
        trailing_newline: true,
      }),
    );
    expect(content).toMatchObject({ leading_newline: false, trailing_newline: false, written_bytes: 1 });
    expect((await ws.read('n.txt')).toString()).toBe('x');
  });

  it('fails on a directory path with workspace_backend_error', async () => {
    await fs.mkdir(path.join(ws.root, 'dir'));
    expectError(
      await callTool('write_file', makeContext(ws.root), { path: 'dir', content: 'x' }),
      'workspace_backend_error',
      'path is not a file: dir',
    );
  });
});
