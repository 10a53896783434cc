/**
 * Runs one shell command (docs/spec/runtime.md §10.6, v1.1 hardening): `bash --noprofile --norc -c` (no login
 * or rc files), a filtered environment, its own process group. stdout and stderr share one pipe
 * (the launcher shell dups stderr onto stdout before exec'ing the command's shell), so their writes
 * arrive interleaved in the order the command made them; the server copies at most
 * `captureLimitBytes` of it to the capture file and drains and discards the rest, so a command
 * printing without end never fills the disk. When the command ends — exit, timeout or cancellation —
 * every process it started is killed (process-tree.ts), so nothing outlives the call.
 */
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync, rmSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { PreparedSandbox } from '../../sandbox/command-sandbox';
import { commandEnvironment } from './shell-environment';
import { anchorFileName } from './orphaned-commands';
import {
  killCommandTree,
  newProcessMarker,
  PROCESS_MARKER_VARIABLE,
  trackCommand,
  type TrackedCommand,
} from './process-tree';

/** Default cap of the captured output and of the artifact (§10.6 v1.1: 64 MiB). */
export const DEFAULT_CAPTURE_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long the pipe may stay open after the command's tree was killed. */
const OUTPUT_DRAIN_MS = 2_000;

/** `exec 2>&1` joins stderr to the stdout pipe; `$1` is then run unchanged as the `-c` string. */
const LAUNCHER = 'exec 2>&1; exec bash --noprofile --norc -c "$1"';

export interface ShellRequest {
  /** Passed to `bash --noprofile --norc -c`. */
  script: string;
  cwd: string;
  /** Written to stdin, which is then closed. */
  stdin: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** File that receives stdout and stderr, up to `captureLimitBytes`. */
  capturePath: string;
  captureLimitBytes?: number;
  /** Base environment (default: the server's), filtered per §10.6 v1.1. */
  env?: NodeJS.ProcessEnv;
  /** docs/spec/sandbox.md §3: puts the shell inside the OS sandbox; absent = run it directly. */
  sandbox?: PreparedSandbox;
}

export type ShellOutcome = (
  | { kind: 'exited'; exitCode: number }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'spawn_failed'; error: Error }
) & { discardedBytes?: number };

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  // Shell convention for a process ended by a signal.
  return 128 + (signal !== null ? (osConstants.signals[signal] ?? 0) : 0);
}

/** The command's anchor file, open for the child to inherit; null when it cannot be created. */
function openAnchor(
  marker: string,
): { path: string; fd: number; handedOver(): void; release(): void } | null {
  const path = join(tmpdir(), anchorFileName(marker));
  try {
    const fd = openSync(path, 'wx', 0o600);
    let open = true;
    const close = (): void => {
      if (open) closeSync(fd);
      open = false;
    };
    return {
      path,
      fd,
      // The child has its own copy now; the server must not hold the mark itself.
      handedOver: close,
      release: () => {
        close();
        rmSync(path, { force: true });
      },
    };
  } catch {
    return null;
  }
}

export async function runShell(request: ShellRequest): Promise<ShellOutcome> {
  if (request.signal.aborted) return { kind: 'cancelled' };
  const limit = request.captureLimitBytes ?? DEFAULT_CAPTURE_LIMIT_BYTES;
  const marker = newProcessMarker();
  const anchor = openAnchor(marker);
  let child;
  try {
    const shell = { file: 'bash', args: ['--noprofile', '--norc', '-c', LAUNCHER, 'bash', request.script] };
    const program = request.sandbox?.wrap(shell) ?? shell;
    child = spawn(program.file, program.args, {
      cwd: request.cwd,
      detached: true,
      // fd 3 (ANCHOR_FD): the anchor descriptor every descendant inherits (see process-tree.ts).
      // stderr: only what comes before the launcher's `exec 2>&1` — a sandbox's own refusal (bwrap's
      // one line) — so the model sees why a wrapped command could not start.
      stdio: ['pipe', 'pipe', request.sandbox !== undefined ? 'pipe' : 'ignore', anchor?.fd ?? 'ignore'],
      env: commandEnvironment(request.env ?? process.env, { [PROCESS_MARKER_VARIABLE]: marker }),
    });
  } catch (error) {
    anchor?.release();
    return { kind: 'spawn_failed', error: error as Error };
  }
  anchor?.handedOver();
  const tracked: TrackedCommand = {
    pgid: child.pid,
    marker,
    anchorPath: anchor?.path,
    containedByGroup: request.sandbox?.containsDescendants === true,
  };
  const untrack = trackCommand(tracked);

  const capture = createWriteStream(request.capturePath);
  let capturedBytes = 0;
  let discardedBytes = 0;
  const stdout = child.stdout;
  const keep = (chunk: Buffer): void => {
    const room = limit - capturedBytes;
    const kept = room >= chunk.length ? chunk : chunk.subarray(0, Math.max(room, 0));
    discardedBytes += chunk.length - kept.length;
    if (kept.length === 0) return;
    capturedBytes += kept.length;
    // Backpressure while writing; once the cap is reached the pipe is drained at full speed.
    if (!capture.write(kept)) {
      stdout?.pause();
      capture.once('drain', () => stdout?.resume());
    }
  };
  stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const outputEnded = new Promise<void>((resolve) => {
    if (!stdout) resolve();
    else stdout.once('close', () => resolve());
  });

  const ended = await new Promise<ShellOutcome>((resolve) => {
    let stopReason: 'timeout' | 'cancelled' | undefined;
    let settled = false;
    const stop = (reason: 'timeout' | 'cancelled'): void => {
      stopReason ??= reason;
      void killCommandTree(tracked);
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

  // Background children (`&`, `setsid`, `nohup`) would otherwise keep running and keep the pipe open.
  await killCommandTree(tracked);
  untrack();
  anchor?.release();
  // A process that escaped the scan (e.g. `env -i`) could hold the pipe open forever: stop reading.
  const drainTimer = setTimeout(() => stdout?.destroy(), OUTPUT_DRAIN_MS);
  await outputEnded;
  clearTimeout(drainTimer);
  // The sandbox's stderr is done once its processes are gone; nothing may write after the capture ends.
  child.stderr?.destroy();
  await new Promise<void>((resolve) => capture.end(() => resolve()));
  return { ...ended, discardedBytes };
}
