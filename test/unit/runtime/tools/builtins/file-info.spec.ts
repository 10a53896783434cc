import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import {
  callTool,
  expectError,
  makeContext,
  makeWorkspace,
  parseContent,
  type TempWorkspace,
} from './builtin-test-kit';

describe('file_info', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.remove());

  it('describes a file with size, ISO modified time and suffix', async () => {
    const file = await ws.write('src/main.ts', 'héllo');
    await fs.utimes(file, 1_700_000_000, 1_700_000_000);
    const result = await callTool('file_info', makeContext(ws.root), { path: './src/../src/main.ts' });
    expect(result.status).toBe('success');
    expect(result.content).toBe(
      '{"path":"src/main.ts","exists":true,"is_file":true,"is_dir":false,"size":6,"modified_at":"2023-11-14T22:13:20.000Z","suffix":".ts"}',
    );
  });

  it.each([
    ['Makefile', ''],
    ['.bashrc', ''],
    ['archive.tar.gz', '.gz'],
  ])('suffix of %s is %j', async (name, suffix) => {
    await ws.write(name, '');
    expect(parseContent(await callTool('file_info', makeContext(ws.root), { path: name })).suffix).toBe(
      suffix,
    );
  });

  it('describes a directory without suffix, including the root by absolute path', async () => {
    await fs.mkdir(path.join(ws.root, 'docs'));
    const docs = parseContent(await callTool('file_info', makeContext(ws.root), { path: 'docs' }));
    expect(docs).toMatchObject({ path: 'docs', exists: true, is_file: false, is_dir: true });
    expect(docs).not.toHaveProperty('suffix');
    const root = parseContent(await callTool('file_info', makeContext(ws.root), { path: ws.root }));
    expect(root).toMatchObject({ path: '.', is_dir: true });
  });

  it('reports a missing path with the raw path', async () => {
    expectError(
      await callTool('file_info', makeContext(ws.root), { path: 'nope/x.txt' }),
      'path_not_found',
      'path not found: nope/x.txt',
    );
  });

  it('rejects paths outside the workspace', async () => {
    expectError(
      await callTool('file_info', makeContext(ws.root), { path: '../outside' }),
      'path_escapes_workspace',
      'Path escapes workspace: ../outside',
    );
  });
});
