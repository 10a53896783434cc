/**
 * Symlink swap (TOCTOU) attack from issue 12: a separate process keeps flipping a workspace path
 * between a regular file (or nothing) and a symlink to a file outside the workspace while the file
 * tools run. Check and use must be the same object: no call may return outside content, write to an
 * outside file, or create one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { callTool, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

jest.setTimeout(60_000);

const CALLS = 400;

/** Renames prepared entries over `target` in a tight loop until killed. */
function startFlipper(target: string, entries: string[]): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const [target, ...entries] = JSON.parse(process.argv[1]);
    for (let i = 0; ; i = (i + 1) % entries.length) {
      try { fs.renameSync(entries[i], target); fs.renameSync(target, entries[i]); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script, JSON.stringify([target, ...entries])], { stdio: 'ignore' });
}

async function stop(flipper: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => flipper.once('exit', resolve));
  flipper.kill('SIGKILL');
  await exited;
}

describe('symlink swap during file tools', () => {
  let ws: TempWorkspace;
  let flipper: ChildProcess | undefined;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(async () => {
    if (flipper) await stop(flipper);
    flipper = undefined;
    await ws.remove();
  });

  it('read_file, edit_file and search_files never see or touch the outside file', async () => {
    const secret = path.join(ws.outside, 'secret.txt');
    await fs.writeFile(secret, 'OUTSIDE-SECRET\n');
    await ws.write('f.file', 'inside\n');
    await fs.symlink(secret, path.join(ws.root, 'f.link'));
    flipper = startFlipper(path.join(ws.root, 'f'), [
      path.join(ws.root, 'f.file'),
      path.join(ws.root, 'f.link'),
    ]);
    const ctx = makeContext(ws.root);
    const seen: string[] = [];
    for (let call = 0; call < CALLS; call += 1) {
      const read = await callTool('read_file', ctx, { path: 'f' });
      seen.push(read.content);
      // A baseline for the edit attempt: whatever read succeeded.
      const edit = await callTool('edit_file', ctx, { path: 'f', old_string: 'SECRET', new_string: 'PWNED' });
      seen.push(edit.content);
    }
    for (let call = 0; call < 8; call += 1) {
      const search = await callTool('search_files', ctx, { pattern: 'OUTSIDE', output_mode: 'content' });
      seen.push(search.content);
    }
    expect(seen.filter((text) => text.includes('OUTSIDE-SECRET'))).toEqual([]);
    expect(seen.some((text) => text === 'inside\n')).toBe(true);
    expect(await fs.readFile(secret, 'utf8')).toBe('OUTSIDE-SECRET\n');
  });

  it('write_file never writes to nor creates a file outside', async () => {
    const existing = path.join(ws.outside, 'existing.txt');
    const created = path.join(ws.outside, 'created.txt');
    await fs.writeFile(existing, 'untouched\n');
    await fs.symlink(existing, path.join(ws.root, 'a.link'));
    await fs.symlink(created, path.join(ws.root, 'b.link'));
    await ws.write('a.file', 'inside\n');
    flipper = startFlipper(path.join(ws.root, 'f'), [
      path.join(ws.root, 'a.file'),
      path.join(ws.root, 'a.link'),
      path.join(ws.root, 'b.link'),
    ]);
    const ctx = makeContext(ws.root);
    for (let call = 0; call < CALLS; call += 1) {
      await callTool('write_file', ctx, { path: 'f', content: 'agent\n', append: true });
      await callTool('write_file', ctx, { path: 'g', content: `agent ${call}\n` });
    }
    await stop(flipper);
    flipper = undefined;
    expect(await fs.readFile(existing, 'utf8')).toBe('untouched\n');
    await expect(fs.access(created)).rejects.toThrow();
    expect(await fs.readdir(ws.outside)).toEqual(['existing.txt']);
  });
});
