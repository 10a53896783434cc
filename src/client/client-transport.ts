/**
 * How the typed client reaches a server (protocol.md §13): JSONL over a spawned child's stdin/stdout,
 * or an in-process connection of an `AppServerCore` fed through the same line handler as stdio.
 * Transports move lines only; the client interprets them.
 */
import { spawn } from 'node:child_process';
import type { AppServerCore } from '../protocols/app-server-v1/app-server-core';
import type { MessageSink } from '../rpc/message-sink';

export interface TransportListener {
  /** One inbound line, without its terminator, in order. */
  line(text: string): void;
  /** The connection is gone (child exited, connection closed); called once, after the last line. */
  closed(): void;
}

export interface ClientTransport {
  /** Sends one message line (the terminator is added). Dropped silently once the connection is gone. */
  send(line: string): void;
  /** Ends the connection; resolves when it is gone. */
  close(): Promise<void>;
}

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

/**
 * One new connection of `core`. Lines the server writes are delivered asynchronously (in order) so
 * client code — an approval handler answering at once, say — never re-enters the server's writer.
 */
export function inProcessTransport(core: AppServerCore, listener: TransportListener): ClientTransport {
  type Delivery = { kind: 'line'; text: string } | { kind: 'closed' };
  const deliveries: Delivery[] = [];
  let scheduled = false;
  let gone = false;

  const deliver = (): void => {
    scheduled = false;
    for (const delivery of deliveries.splice(0)) {
      if (delivery.kind === 'line') listener.line(delivery.text);
      else listener.closed();
    }
  };
  const enqueue = (delivery: Delivery): void => {
    deliveries.push(delivery);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(deliver);
    }
  };

  const sink: MessageSink = {
    write(line) {
      enqueue({ kind: 'line', text: line.endsWith('\n') ? line.slice(0, -1) : line });
      return true;
    },
    onDrain() {
      // write() never asks the writer to wait.
    },
  };
  const connection = core.connect(sink);
  let closedSignal: Promise<void> | null = null;
  const whenGone = new Promise<void>((resolve) => {
    connection.onClose(() => {
      // Lines queued before the close are still written; report the loss after them.
      closedSignal ??= connection.whenFlushed().then(() => {
        gone = true;
        enqueue({ kind: 'closed' });
        resolve();
      });
    });
  });

  return {
    send(line) {
      if (!gone && !connection.isClosed) core.receiveLine(connection, line);
    },
    async close() {
      core.disconnect(connection);
      await whenGone;
    },
  };
}
