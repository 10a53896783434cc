/**
 * The `bwrap` command line for one sandboxed command (docs/spec/sandbox.md §3). Pure: every path is
 * already resolved. Order matters to bwrap — later mounts cover earlier ones — so the read-only
 * root comes first, then the private `/tmp`, the writable roots, the protected `.git` / `.vv-agent`
 * over them, and the hiding mounts last, so that nothing writable can uncover a hidden path.
 */
import type { HiddenMount } from './sandbox-paths';

export interface BubblewrapPlan {
  writableRoots: readonly string[];
  /** Read-only again inside the writable roots. */
  protectedPaths: readonly string[];
  hidden: readonly HiddenMount[];
  network: boolean;
  cwd: string;
}

function hidingArguments(mount: HiddenMount): string[] {
  // An empty directory nobody may list or enter, or an empty file: "replaced by empty, unreadable mounts".
  return mount.kind === 'directory'
    ? ['--perms', '0000', '--tmpfs', mount.path, '--remount-ro', mount.path]
    : ['--ro-bind', '/dev/null', mount.path];
}

export function bubblewrapArguments(
  plan: BubblewrapPlan,
  program: { file: string; args: string[] },
): string[] {
  return [
    ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
    ...plan.writableRoots.flatMap((root) => ['--bind', root, root]),
    ...plan.protectedPaths.flatMap((path) => ['--ro-bind', path, path]),
    ...plan.hidden.flatMap(hidingArguments),
    ...['--unshare-pid', '--unshare-ipc', '--unshare-uts'],
    ...(plan.network ? [] : ['--unshare-net']),
    // The command dies with the server, gets no controlling terminal to inject input into (TIOCSTI),
    // and — decisive when the server runs as root — keeps none of bwrap's capabilities, so it
    // cannot `umount` a hiding mount or remount `/` read-write.
    ...['--die-with-parent', '--new-session', '--cap-drop', 'ALL'],
    ...['--chdir', plan.cwd],
    '--',
    program.file,
    ...program.args,
  ];
}
