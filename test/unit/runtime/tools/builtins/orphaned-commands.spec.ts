/** Anchors of dead owners are reaped; anchors of live owners (this process) are left alone. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  anchorFileName,
  reapOrphanedCommands,
} from '../../../../../src/runtime/tools/builtins/orphaned-commands';

describe('reapOrphanedCommands', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'vv-anchors-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('removes the anchors of owners that are gone and keeps the live ones and foreign files', async () => {
    const live = anchorFileName('a'.repeat(32));
    // A pid beyond pid_max with a made-up start token: that owner cannot be alive.
    const dead = ['vv-bash-anchor', 4_194_999, encodeURIComponent('boot:1'), 'b'.repeat(32)].join('.');
    for (const name of [live, dead, 'unrelated.txt']) writeFileSync(join(directory, name), '');
    await expect(reapOrphanedCommands(directory)).resolves.toBe(1);
    expect([live, dead, 'unrelated.txt'].map((name) => existsSync(join(directory, name)))).toEqual([
      true,
      false,
      true,
    ]);
  });
});
