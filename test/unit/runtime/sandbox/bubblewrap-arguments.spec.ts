/** The bwrap command line (docs/spec/sandbox.md §3): every rule present, mounts in an order that cannot uncover a hidden path. */
import { bubblewrapArguments } from '../../../../src/runtime/sandbox/bubblewrap-arguments';

const PROGRAM = { file: 'bash', args: ['-c', 'true'] };

function plan(network: boolean) {
  return {
    writableRoots: ['/w'],
    protectedPaths: ['/w/.git'],
    hidden: [
      { path: '/home/u/.ssh', kind: 'directory' as const },
      { path: '/w/settings.json', kind: 'file' as const },
    ],
    network,
    cwd: '/w/sub',
  };
}

describe('bubblewrapArguments', () => {
  it('drops every capability, unshares pid/ipc/uts/net, dies with the parent, has no terminal', () => {
    const args = bubblewrapArguments(plan(false), PROGRAM).join(' ');
    for (const rule of [
      '--ro-bind / /',
      '--dev /dev',
      '--proc /proc',
      '--tmpfs /tmp',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
      '--die-with-parent',
      '--new-session',
      '--cap-drop ALL',
      '--chdir /w/sub',
    ])
      expect(args).toContain(rule);
    expect(args.endsWith('-- bash -c true')).toBe(true);
  });

  it('keeps the network only when asked', () => {
    expect(bubblewrapArguments(plan(true), PROGRAM)).not.toContain('--unshare-net');
  });

  it('binds the roots writable, then .git read-only over them, then hides (last wins)', () => {
    const args = bubblewrapArguments(plan(false), PROGRAM);
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((value, j) => args[i + j] === value));
    expect(at('--bind', '/w', '/w')).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--ro-bind', '/w/.git', '/w/.git')).toBeGreaterThan(at('--bind', '/w', '/w'));
    expect(at('--perms', '0000', '--tmpfs', '/home/u/.ssh')).toBeGreaterThan(
      at('--ro-bind', '/w/.git', '/w/.git'),
    );
    expect(at('--ro-bind', '/dev/null', '/w/settings.json')).toBeGreaterThan(at('--bind', '/w', '/w'));
  });
});
