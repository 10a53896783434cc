/**
 * A lean JSONL driver for a child process, built for measurement: it keeps no history (streams of
 * hundreds of MB pass through), stamps every stdout chunk with `process.hrtime.bigint()` once, and
 * hands each parsed line to the registered listeners with that read time. The same driver talks to
 * the App Server and to the plain-Node floors, so client costs are identical on both sides.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export type JsonMessage = Record<string, unknown>;
/** `readAtNs`: hrtime (ns, CLOCK_MONOTONIC) when the stdout chunk (or frame) holding it was read. */
export type MessageListener = (message: JsonMessage, readAtNs: bigint) => void;

/**
 * Request/response and waiting over any transport of parsed JSON messages: JsonlPeer (a child's
 * stdio) and BenchWsClient (one WebSocket, support/ws-clients.ts) share it.
 */
export abstract class MessagePeer {
  private readonly listeners = new Set<MessageListener>();

  abstract send(message: unknown): void;

  /** Said in timeout errors (e.g. the child's stderr). */
  protected diagnostics(): string {
    return '';
  }

  onMessage(listener: MessageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected deliver(message: JsonMessage, readAtNs: bigint): void {
    for (const listener of [...this.listeners]) listener(message, readAtNs);
  }

  /** The first message (from now on) that matches. */
  waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs = 60_000): Promise<JsonMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`timed out waiting for a message; ${this.diagnostics()}`));
      }, timeoutMs);
      const stop = this.onMessage((message) => {
        if (!predicate(message)) return;
        clearTimeout(timer);
        stop();
        resolve(message);
      });
    });
  }

  /** Sends a request and resolves with its response or error (by id). */
  request(id: string | number, method: string, params?: unknown, timeoutMs = 60_000): Promise<JsonMessage> {
    const answer = this.waitFor((message) => message.id === id && !('method' in message), timeoutMs);
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return answer;
  }

  /** Like `request`, but throws unless the answer is a result. */
  async call(
    id: string | number,
    method: string,
    params?: unknown,
    timeoutMs = 60_000,
  ): Promise<JsonMessage> {
    const answer = await this.request(id, method, params, timeoutMs);
    if (!('result' in answer)) throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
    return answer.result as JsonMessage;
  }
}

export class JsonlPeer extends MessagePeer {
  readonly process: ChildProcessWithoutNullStreams;
  /** Pieces of the unterminated line, joined once its `\n` arrives (linear in the line length). */
  private readonly pending: string[] = [];
  private stderrTail = '';
  private invalid = 0;
  private readonly exited: Promise<number | null>;

  private constructor(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }) {
    super();
    this.process = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.process.stdout.setEncoding('utf8');
    this.process.stdout.on('data', (chunk: string) => this.onStdout(chunk, process.hrtime.bigint()));
    this.process.stderr.setEncoding('utf8');
    this.process.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    this.process.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.process.on('close', (code) => resolve(code)));
  }

  static spawnNode(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): JsonlPeer {
    return new JsonlPeer(args, options);
  }

  get pid(): number {
    const pid = this.process.pid;
    if (pid === undefined) throw new Error('child has no pid');
    return pid;
  }

  /** stdout lines that were not JSON (must stay 0: stdout is protocol only). */
  get invalidLines(): number {
    return this.invalid;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  send(message: unknown): void {
    this.process.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Writes pre-joined JSONL text at once (many requests in flight). */
  sendText(text: string): void {
    this.process.stdin.write(text);
  }

  protected override diagnostics(): string {
    return `stderr: ${this.stderrTail}`;
  }

  /** Closes stdin and waits for the exit (SIGKILL after `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<number | null> {
    this.process.stdin.end();
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private onStdout(chunk: string, readAtNs: bigint): void {
    // Re-splitting `rest + chunk` for every chunk of a multi-MB line would be quadratic: only the
    // new chunk is scanned for newlines, and the pending pieces are joined once per line.
    const lines: string[] = [];
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      this.pending.push(chunk.slice(start, newline));
      lines.push(this.pending.join(''));
      this.pending.length = 0;
      start = newline + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.slice(start));
    for (const line of lines) {
      let message: JsonMessage;
      try {
        message = JSON.parse(line) as JsonMessage;
      } catch {
        this.invalid += 1;
        continue;
      }
      this.deliver(message, readAtNs);
    }
  }
}
