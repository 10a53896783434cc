import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import {
  lexicalWorkspacePath,
  resolveWorkspacePath,
} from '../../../../../src/runtime/tools/builtins/workspace-path';
import { BuiltinToolError } from '../../../../../src/runtime/tools/builtins/tool-error';
import { callTool, expectError, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

describe('lexicalWorkspacePath', () => {
  const root = '/srv/ws';
  it.each([
    ['.', '.'],
    ['', '.'],
    ['src/a.ts', 'src/a.ts'],
    ['./src/../src/./a.ts', 'src/a.ts'],
    ['src/', 'src'],
    ['/srv/ws', '.'],
    ['/srv/ws/lib/x', 'lib/x'],
    ['~/notes', '~/notes'],
    ['a/../../ws/b', 'b'],
  ])('%j resolves to %j', (raw, relative) => {
    expect(lexicalWorkspacePath(root, raw)?.relative).toBe(relative);
  });

  it.each([['..'], ['../ws-other/x'], ['/srv/ws-other'], ['/etc/passwd'], ['a/../../..'], ['/srv']])(
    '%j escapes',
    (raw) => {
      expect(lexicalWorkspacePath(root, raw)).toBeNull();
    },
  );
});

describe('resolveWorkspacePath (real files)', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
    await ws.write('inside.txt', 'in');
    await fs.writeFile(path.join(ws.outside, 'secret.txt'), 'outside');
  });
  afterEach(() => ws.remove());

  async function escapeMessage(raw: string): Promise<string> {
    const error = await resolveWorkspacePath(ws.root, raw).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BuiltinToolError);
    expect((error as BuiltinToolError).code).toBe('path_escapes_workspace');
    return (error as BuiltinToolError).message;
  }

  it('accepts paths inside, including missing ones, and reports them relative', async () => {
    await expect(resolveWorkspacePath(ws.root, 'inside.txt')).resolves.toEqual({
      absolute: path.join(ws.root, 'inside.txt'),
      relative: 'inside.txt',
    });
    await expect(
      resolveWorkspacePath(ws.root, path.join(ws.root, 'new/deep/file.txt')),
    ).resolves.toMatchObject({
      relative: 'new/deep/file.txt',
    });
  });

  it('rejects ../ and absolute paths outside with the raw path in the message', async () => {
    expect(await escapeMessage('../outside/secret.txt')).toBe(
      'Path escapes workspace: ../outside/secret.txt',
    );
    const absolute = path.join(ws.outside, 'secret.txt');
    expect(await escapeMessage(absolute)).toBe(`Path escapes workspace: ${absolute}`);
  });

  it('rejects a symlinked directory pointing outside, for existing and new files under it', async () => {
    await fs.symlink(ws.outside, path.join(ws.root, 'link'));
    expect(await escapeMessage('link/secret.txt')).toBe('Path escapes workspace: link/secret.txt');
    expect(await escapeMessage('link/new/file.txt')).toBe('Path escapes workspace: link/new/file.txt');
    expect(await escapeMessage('link')).toBe('Path escapes workspace: link');
  });

  it('rejects a dangling symlink whose target lies outside', async () => {
    await fs.symlink(path.join(ws.outside, 'not-yet'), path.join(ws.root, 'dangling'));
    expect(await escapeMessage('dangling')).toBe('Path escapes workspace: dangling');
    expect(await escapeMessage('dangling/child.txt')).toBe('Path escapes workspace: dangling/child.txt');
  });

  it('accepts a symlink that stays inside the workspace', async () => {
    await fs.mkdir(path.join(ws.root, 'real'));
    await fs.symlink(path.join(ws.root, 'real'), path.join(ws.root, 'alias'));
    await expect(resolveWorkspacePath(ws.root, 'alias/x.txt')).resolves.toMatchObject({
      relative: 'alias/x.txt',
    });
  });

  it('works when the workspace root itself is reached through a symlink', async () => {
    const linkedRoot = path.join(ws.outside, 'ws-link');
    await fs.symlink(ws.root, linkedRoot);
    await expect(resolveWorkspacePath(linkedRoot, 'inside.txt')).resolves.toMatchObject({
      relative: 'inside.txt',
    });
    const error = await resolveWorkspacePath(linkedRoot, '../secret.txt').catch((caught: unknown) => caught);
    expect((error as BuiltinToolError).code).toBe('path_escapes_workspace');
  });
});

describe('confinement through the tools', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
    await fs.writeFile(path.join(ws.outside, 'secret.txt'), 'outside secret');
    await fs.symlink(ws.outside, path.join(ws.root, 'link'));
  });
  afterEach(() => ws.remove());

  it.each([
    ['read_file', { path: 'link/secret.txt' }],
    ['read_file', { path: '../outside/secret.txt' }],
    ['file_info', { path: 'link/secret.txt' }],
    ['write_file', { path: 'link/created.txt', content: 'x' }],
    ['write_file', { path: 'link/sub/created.txt', content: 'x' }],
    ['edit_file', { path: 'link/secret.txt', old_string: 'outside', new_string: 'inside' }],
    ['find_files', { path: 'link' }],
    ['search_files', { pattern: 'secret', path: 'link' }],
    ['bash', { command: 'pwd', exec_dir: 'link' }],
    ['bash', { command: 'pwd', exec_dir: '..' }],
  ] as const)('%s %j fails with path_escapes_workspace and touches nothing', async (name, args) => {
    const ctx = makeContext(ws.root);
    const result = await callTool(name, ctx, { ...args });
    expectError(result, 'path_escapes_workspace');
    expect(await fs.readdir(ws.outside)).toEqual(['secret.txt']);
    expect(await fs.readFile(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('read_file of a file symlinked from outside is rejected even though the link itself is inside', async () => {
    await fs.symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'file-link'));
    const result = await callTool('read_file', makeContext(ws.root), { path: 'file-link' });
    expectError(result, 'path_escapes_workspace', 'Path escapes workspace: file-link');
  });
});
