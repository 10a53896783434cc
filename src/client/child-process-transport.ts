/**
 * The typed client over a spawned child's stdin/stdout (protocol.md §13): JSONL, one message per
 * line. Node only; browser builds get child-process-transport.browser.ts instead (package.json
 * "browser"), so a bundle of the client never pulls in `node:child_process`.
 */
import { spawn } from 'node:child_process';
import type { ClientTransport, TransportListener } from './client-transport';

export interface SpawnTransportOptions {
  command: string;
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  onStderr?: (line: string) => void;
}

/** §13 `close()`: how long a child gets to exit after its stdin ends before SIGKILL. */
export const CHILD_EXIT_GRACE_MS = 5_000;

/** Splits a text stream into lines; `flush` returns an unterminated rest. */
class LineSplitter {
  private rest = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    const parts = (this.rest + chunk).split('\n');
    this.rest = parts.pop() ?? '';
    for (const part of parts) this.onLine(part.endsWith('\r') ? part.slice(0, -1) : part);
  }

  flush(): void {
    if (this.rest !== '') this.onLine(this.rest);
    this.rest = '';
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
    const finish = (): void => {
      if (settled) return;
      settled = true;
      exited = true;
      stdout.flush();
      stderr.flush();
      listener.closed();
      resolve();
    };
    child.once('close', finish);
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
