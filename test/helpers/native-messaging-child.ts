/**
 * A browser's side of native messaging (docs/spec/native-messaging.md §1) for tests: starts a host program
 * the way Chrome does (the program named by the manifest's `path`, the caller's origin as first
 * argument, the host's folder as working directory), writes length-prefixed JSON frames to its
 * stdin and cuts its stdout into frames. Every frame's size is recorded (`frameSizes`) so tests can
 * assert the 1 MiB rule on all of them; a frame that is not one JSON object lands in `invalidLines`.
 * Same surface as JsonlChild, so AppServerSession drives either.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname } from 'node:path';
import type { JsonMessage, MessageChild } from './jsonl-child';

export interface NativeHostLaunch {
  /** The manifest's `path`: the launcher script. */
  program: string;
  /** What the browser passes: Chrome `[origin]` (on Windows also `--parent-window=<hwnd>`), Firefox `[manifest, id]`. */
  args: string[];
  env?: NodeJS.ProcessEnv;
}

export function frameOf(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  return Buffer.concat([header, body]);
}

export class NativeMessagingChild implements MessageChild {
  readonly process: ChildProcessWithoutNullStreams;
  readonly received: JsonMessage[] = [];
  readonly invalidLines: string[] = [];
  /** Body size in bytes of every frame read from stdout, in order. */
  readonly frameSizes: number[] = [];
  private readonly unread: JsonMessage[] = [];
  private waiters: Array<() => void> = [];
  private pending: Buffer = Buffer.alloc(0);
  private stderrText = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(launch: NativeHostLaunch) {
    this.process = spawn(launch.program, launch.args, {
      cwd: dirname(launch.program),
      env: launch.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.process.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.process.stderr.setEncoding('utf8');
    this.process.stderr.on('data', (chunk: string) => (this.stderrText += chunk));
    this.process.stdin.on('error', () => undefined);
    this.exited = new Promise((resolveExit) => {
      this.process.on('close', (code, signal) => {
        this.wake();
        resolveExit({ code, signal });
      });
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Bytes left on stdout that do not make a whole frame (must be 0 after exit). */
  get partialFrameBytes(): number {
    return this.pending.length;
  }

  send(message: unknown): void {
    this.process.stdin.write(frameOf(message));
  }

  sendRaw(bytes: Buffer): void {
    this.process.stdin.write(bytes);
  }

  async next(timeoutMs = 10_000): Promise<JsonMessage> {
    return this.waitFor(() => true, timeoutMs);
  }

  async waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs = 10_000): Promise<JsonMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.unread.findIndex(predicate);
      if (index !== -1) return this.unread.splice(index, 1)[0];
      if (this.process.exitCode !== null || this.process.signalCode !== null) {
        throw new Error(`host exited before the expected message; stderr:\n${this.stderrText}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const tail = JSON.stringify(this.unread).slice(0, 2000);
        throw new Error(`timed out waiting for a frame; unread: ${tail}`);
      }
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  takeUnread(): JsonMessage[] {
    return this.unread.splice(0);
  }

  closeStdin(): void {
    this.process.stdin.end();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.process.kill(signal);
  }

  async waitExit(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private onStdout(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32LE(0);
      if (this.pending.length < 4 + length) break;
      const body = this.pending.subarray(4, 4 + length).toString('utf8');
      this.pending = this.pending.subarray(4 + length);
      this.frameSizes.push(length);
      try {
        const message = JSON.parse(body) as JsonMessage;
        this.received.push(message);
        this.unread.push(message);
      } catch {
        this.invalidLines.push(body.slice(0, 200));
      }
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
