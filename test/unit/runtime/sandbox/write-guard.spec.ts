/** File tools under the mode (docs/spec/sandbox.md §1): nothing in read-only, not .git/.vv-agent in workspace-write. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { READ_ONLY_WRITE_MESSAGE, sandboxWriteDenial } from '../../../../src/runtime/sandbox/write-guard';

describe('sandboxWriteDenial', () => {
  let workspace: string;
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'vv-write-guard-'));
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true });
    symlinkSync(join(workspace, '.git'), join(workspace, 'g'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('read-only denies every write; danger-full-access none', () => {
    expect(sandboxWriteDenial({ mode: 'read-only', boundary: null }, workspace, join(workspace, 'a'))).toBe(
      READ_ONLY_WRITE_MESSAGE,
    );
    expect(
      sandboxWriteDenial(
        { mode: 'danger-full-access', boundary: null },
        workspace,
        join(workspace, '.git/x'),
      ),
    ).toBeNull();
  });

  it('workspace-write denies .git and .vv-agent, also through a symlink, and allows the rest', () => {
    const sandbox = { mode: 'workspace-write' as const, boundary: null };
    expect(sandboxWriteDenial(sandbox, workspace, join(workspace, '.git/hooks/pre-commit'))).toContain(
      '.git/hooks/pre-commit',
    );
    expect(sandboxWriteDenial(sandbox, workspace, join(workspace, 'g/config'))).toContain(
      '.git/ stays read-only',
    );
    expect(sandboxWriteDenial(sandbox, workspace, join(workspace, '.vv-agent/x.txt'))).toContain(
      '.vv-agent/',
    );
    expect(sandboxWriteDenial(sandbox, workspace, join(workspace, 'src/a.ts'))).toBeNull();
    expect(sandboxWriteDenial(sandbox, workspace, join(workspace, '.github/ci.yml'))).toBeNull();
  });
});
