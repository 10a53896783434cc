/**
 * The port between the `bash` tool and an OS sandbox (docs/spec/sandbox.md §3): the tool hands over the
 * program it would have started and gets back the program that starts it inside the boundary. One
 * implementation per platform (bubblewrap on Linux today; macOS Seatbelt can be added behind the
 * same interface, see platform-sandbox.ts).
 */
import type { ConfinedSandboxMode } from './sandbox-mode';

/** A program and its arguments, as `child_process.spawn` takes them. */
export interface ProgramInvocation {
  file: string;
  args: string[];
}

/** Where one command runs and how much it may touch. */
export interface SandboxScope {
  mode: ConfinedSandboxMode;
  /** The run's workspace root (absolute): writable in `workspace-write`. */
  workspace: string;
  /** The command's working directory (absolute, inside the workspace). */
  cwd: string;
}

/** One call's boundary, resolved: what wraps the shell, and what the boundary guarantees. */
export interface PreparedSandbox {
  wrap(program: ProgramInvocation): ProgramInvocation;
  /**
   * True when every process the command starts dies with the wrapper (bubblewrap: a PID namespace
   * whose init dies with its parent), so killing the wrapper's process group ends them all and the
   * `/proc` walk of runtime.md §10.6 is not needed. A boundary without that guarantee (e.g. a
   * Seatbelt profile) says false and the walk runs as for an unsandboxed command.
   */
  containsDescendants: boolean;
}

/** The call cannot be sandboxed as asked (e.g. its workspace lies inside a hidden path). */
export class SandboxRefusal extends Error {}

export interface CommandSandbox {
  /** Why no command can be sandboxed on this machine; null when the probe succeeded. */
  readonly unavailableCause: string | null;
  /** `--sandbox-network`: whether `workspace-write` commands keep the network. */
  readonly networkAllowed: boolean;
  /** Extra writable roots (`--sandbox-writable-root`), resolved, for `workspace-write`. */
  readonly extraWritableRoots: readonly string[];
  /**
   * Resolves the scope once (real paths, what to hide) and returns what wraps a program in it.
   * Throws SandboxRefusal when the scope cannot be honoured; never called while unavailable.
   */
  prepare(scope: SandboxScope): PreparedSandbox;
}
