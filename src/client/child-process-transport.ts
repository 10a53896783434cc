/**
 * The typed client over a spawned child's stdin/stdout (docs/spec/protocol.md §13): JSONL, one message per
 * line. Node only; browser builds get child-process-transport.browser.ts instead (package.json
 * "browser"), so a bundle of the client never pulls in `node:child_process`.
 */
import { spawn } from 'node:child_process';
import type { ClientTransport, TransportListener } from './client-transport';

export interface SpawnTransportOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** The child's environment (default: this process's). */
  env?: Record<string, string | undefined>;
  onStderr?: (line: string) => void;
}

/** §13 `close()`: how long a child gets to exit after its stdin ends before SIGKILL. */
export const CHILD_EXIT_GRACE_MS = 5_000;

/**
 * After the child's exit, how long its pipes may still deliver what it wrote before they are let
 * go: a process it started that inherited stdout would otherwise hold `close()` open until it ends.
 */
export const PIPE_DRAIN_AFTER_EXIT_MS = 500;

/**
 * Splits a text stream into lines; `flush` hands over an unterminated rest. A line longer than a
 * chunk is kept as its pieces and joined once its newline arrives (a `thread/read` answer can be
 * megabytes): no piece is scanned or copied twice.
 */
export class LineSplitter {
  private pending: string[] = [];

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      let line = chunk.slice(start, newline);
      if (this.pending.length > 0) {
        this.pending.push(line);
        line = this.pending.join('');
        this.pending = [];
      }
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = newline + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  flush(): void {
    const rest = this.pending.join('');
    this.pending = [];
    if (rest !== '') this.onLine(rest);
  }
}

export function spawnTransport(options: SpawnTransportOptions, listener: TransportListener): ClientTransport {
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout = new LineSplitter((line) => listener.line(line));
  const stderr = new LineSplitter((line) => options.onStderr?.(line));
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(drainTimer);
      exited = true;
      stdout.flush();
      stderr.flush();
      listener.closed();
      resolve();
    };
    child.once('close', finish);
    child.once('exit', () => {
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, PIPE_DRAIN_AFTER_EXIT_MS);
    });
    // A child that cannot be spawned emits 'error' and possibly no 'close'.
    child.once('error', () => setImmediate(finish));
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => stdout.push(chunk));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => stderr.push(chunk));
  // EPIPE after the child exited: the exit itself reports the loss.
  child.stdin.on('error', () => undefined);

  return {
    send(line) {
      if (!exited && child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    async close() {
      if (exited) return;
      child.stdin.end();
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace-over'>((resolve) => {
        timer = setTimeout(() => resolve('grace-over'), CHILD_EXIT_GRACE_MS);
      });
      const outcome = await Promise.race([exit.then(() => 'exited' as const), graceOver]);
      clearTimeout(timer);
      if (outcome === 'grace-over') {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}
