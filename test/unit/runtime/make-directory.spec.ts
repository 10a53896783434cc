/** `mkdir -p` that always ends (src/runtime/make-directory.ts). */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDirectory, makeDirectorySync } from '../../../src/runtime/make-directory';

describe.each([
  ['makeDirectory', (path: string): Promise<void> => makeDirectory(path)],
  [
    'makeDirectorySync',
    (path: string): Promise<void> => Promise.resolve().then(() => makeDirectorySync(path)),
  ],
])('%s', (_name, make) => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vv-mkdir-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates every missing level, and accepts a directory that is already there', async () => {
    const path = join(root, 'a', 'b', 'c');
    await make(path);
    expect(statSync(path).isDirectory()).toBe(true);
    await make(path);
    await make(root);
  });

  it('fails with EEXIST where a regular file stands in the way', async () => {
    writeFileSync(join(root, 'file'), '');
    await expect(make(join(root, 'file'))).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(make(join(root, 'file', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('fails with ENOENT under /proc, where Node 20’s recursive mkdir never returns', async () => {
    if (!existsSync('/proc/self')) return;
    await expect(make('/proc/vv-agent-no-such-dir/store')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
