/**
 * Runs one shell command in its own process group (runtime.md §10.6). stdout and stderr share one
 * capture file descriptor, so their writes land interleaved in the order the command made them; the
 * whole group is killed on timeout or cancellation so that no grandchild outlives the call.
 */
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { promises as fs } from 'node:fs';

export interface ShellRequest {
  /** Passed to `bash -lc`. */
  script: string;
  cwd: string;
  /** Written to stdin, which is then closed. */
  stdin: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** File that receives stdout and stderr. */
  capturePath: string;
}

export type ShellOutcome =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'spawn_failed'; error: Error };

/** SIGKILL to the whole group; the group may already be gone. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill.
  }
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  // Shell convention for a process ended by a signal.
  return 128 + (signal !== null ? (osConstants.signals[signal] ?? 0) : 0);
}

export async function runShell(request: ShellRequest): Promise<ShellOutcome> {
  if (request.signal.aborted) return { kind: 'cancelled' };
  const capture = await fs.open(request.capturePath, 'w');
  let child;
  try {
    child = spawn('bash', ['-lc', request.script], {
      cwd: request.cwd,
      detached: true,
      stdio: ['pipe', capture.fd, capture.fd],
    });
  } catch (error) {
    return { kind: 'spawn_failed', error: error as Error };
  } finally {
    // The child holds its own duplicates of the descriptor.
    await capture.close();
  }

  return new Promise<ShellOutcome>((resolve) => {
    let stopReason: 'timeout' | 'cancelled' | undefined;
    let settled = false;
    const stop = (reason: 'timeout' | 'cancelled'): void => {
      stopReason ??= reason;
      if (child.pid !== undefined) killProcessGroup(child.pid);
    };
    const onAbort = (): void => stop('cancelled');
    const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
    const settle = (outcome: ShellOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    // Aborted while the capture file was being opened: the listener above will never fire.
    if (request.signal.aborted) stop('cancelled');
    child.once('error', (error) => settle({ kind: 'spawn_failed', error }));
    child.once('exit', (code, signal) => {
      settle(
        stopReason !== undefined
          ? { kind: stopReason }
          : { kind: 'exited', exitCode: exitCodeOf(code, signal) },
      );
    });
    // A command that never reads stdin closes the pipe early; that is not a failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.stdin);
  });
}
