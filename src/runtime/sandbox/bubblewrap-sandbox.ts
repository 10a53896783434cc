/**
 * The Linux CommandSandbox (docs/spec/sandbox.md §3) over the `bwrap` binary found at startup. It is
 * probed once, by running `true` inside the same kind of boundary a command gets; a failing probe
 * makes it unavailable, and `bash` then fails closed (`sandbox_unavailable`).
 */
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';

import { bubblewrapArguments } from './bubblewrap-arguments';
import {
  SandboxRefusal,
  type CommandSandbox,
  type PreparedSandbox,
  type ProgramInvocation,
  type SandboxScope,
} from './command-sandbox';
import {
  hiddenMounts,
  hidingPathOf,
  protectedPaths,
  realPathOrNull,
  type HiddenPathList,
} from './sandbox-paths';

export interface BubblewrapSettings {
  /** Absolute path of `bwrap`, found once at startup (a workspace `bwrap` on PATH cannot stand in). */
  bwrapPath: string;
  hidden: HiddenPathList;
  /** `--sandbox-writable-root`, already resolved and checked against `hidden`. */
  extraWritableRoots: readonly string[];
  networkAllowed: boolean;
}

const PROBE_TIMEOUT_MS = 10_000;

export class BubblewrapSandbox implements CommandSandbox {
  readonly networkAllowed: boolean;
  readonly extraWritableRoots: readonly string[];
  private cause: string | null = null;

  constructor(private readonly settings: BubblewrapSettings) {
    this.networkAllowed = settings.networkAllowed;
    this.extraWritableRoots = settings.extraWritableRoots;
  }

  get unavailableCause(): string | null {
    return this.cause;
  }

  /** §3 "Probe once at startup (run `true` in a sandbox)"; records the cause when it fails. */
  probe(): this {
    const prepared = this.prepare({ mode: 'read-only', workspace: '/', cwd: '/' });
    const program = prepared.wrap({ file: 'true', args: [] });
    const result = spawnSync(program.file, program.args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
      cwd: tmpdir(),
    });
    if (result.error) this.cause = `${this.settings.bwrapPath}: ${result.error.message}`;
    else if (result.status !== 0) {
      // bwrap's own one-line reason (e.g. "No permissions to creating new namespace"); never user content.
      const reason = result.stderr.toString('utf8').trim().split('\n')[0] ?? '';
      this.cause = `bwrap exited with ${result.status ?? result.signal}${reason === '' ? '' : `: ${reason}`}`;
    }
    return this;
  }

  prepare(scope: SandboxScope): PreparedSandbox {
    const workspace = this.visibleWorkspace(scope.workspace);
    const writableRoots =
      scope.mode === 'workspace-write'
        ? [workspace, ...this.settings.extraWritableRoots.filter((root) => root !== workspace)]
        : [];
    // Resolved per call, not at startup: a credential folder created since is hidden too.
    const plan = {
      writableRoots,
      protectedPaths: writableRoots.flatMap(protectedPaths),
      // The workspace stays visible in read-only mode too: a hidden folder holding it hides its files only.
      hidden: hiddenMounts(this.settings.hidden, [workspace, ...writableRoots]),
      network: scope.mode === 'workspace-write' && this.networkAllowed,
      cwd: realPathOrNull(scope.cwd) ?? scope.cwd,
    };
    return {
      wrap: (program: ProgramInvocation) => ({
        file: this.settings.bwrapPath,
        args: bubblewrapArguments(plan, program),
      }),
      // --unshare-pid + --die-with-parent: the namespace's init (bwrap) dies with the outer bwrap,
      // and the kernel kills every process of a namespace whose init ended (§3 "makes it exact").
      containsDescendants: true,
    };
  }

  /** The workspace's real path; refused when it does not exist or lies inside a hidden path (§3). */
  private visibleWorkspace(workspace: string): string {
    const real = realPathOrNull(workspace);
    if (real === null) throw new SandboxRefusal(`Workspace not found: ${workspace}`);
    const hiding = hidingPathOf(real, this.settings.hidden);
    if (hiding !== null) {
      throw new SandboxRefusal(`The workspace lies inside a path the sandbox hides (${hiding}).`);
    }
    return real;
  }
}
