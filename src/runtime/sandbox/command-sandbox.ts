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
  prepare(scope: SandboxScope): (program: ProgramInvocation) => ProgramInvocation;
}
