/**
 * One recorded conversation with the REAL stdio App Server: spawns `node dist/main.js app-server
 * --listen stdio …`, writes client lines to its stdin and reads its stdout, and records every line in
 * the order the client wrote or received it. Request ids are integers from 1, as a typical client
 * would send them.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  CLIENT_TO_SERVER,
  SERVER_TO_CLIENT,
  type TranscriptLine,
  type WireMessage,
} from './transcript-format';

export interface SessionLaunch {
  /** Absolute path of the built CLI (`dist/main.js`). */
  mainPath: string;
  /** Arguments after `main.js`. */
  args: string[];
  /** Working directory of the server process. */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const DEFAULT_WAIT_MS = 20_000;

/** A JSON-RPC error answer where the scenario expected a result. */
export class UnexpectedRpcError extends Error {}

export class TranscriptSession {
  readonly lines: TranscriptLine[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly unread: WireMessage[] = [];
  private readonly wakers = new Set<() => void>();
  private readonly exited: Promise<number | null>;
  private stdoutRest = '';
  private stderrText = '';
  private nextId = 1;

  constructor(launch: SessionLaunch) {
    this.child = spawn(process.execPath, [launch.mainPath, ...launch.args], {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.stderrText += chunk));
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code) => {
        this.wake();
        resolve(code);
      });
    });
  }

  /** What the server wrote to stderr so far (logs only; empty in a healthy run). */
  get stderr(): string {
    return this.stderrText;
  }

  /** The id the next `request` will use. */
  peekNextId(): number {
    return this.nextId;
  }

  /** Writes one JSON-RPC message (notification or answer to a server request). */
  send(message: WireMessage, note?: string): void {
    this.lines.push({ direction: CLIENT_TO_SERVER, message, ...(note ? { note } : {}) });
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Writes a deliberately malformed line exactly as given. */
  sendRaw(line: string, note?: string): void {
    this.lines.push({ direction: CLIENT_TO_SERVER, raw: line, ...(note ? { note } : {}) });
    this.child.stdin.write(`${line}\n`);
  }

  /** Sends a request with the next integer id and resolves with its response or error envelope. */
  async request(method: string, params?: unknown, note?: string): Promise<WireMessage> {
    const id = this.nextId++;
    const message: WireMessage = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message, note);
    return this.waitForAnswer(id);
  }

  /** Like `request`, but resolves with the result and throws on an error answer. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown, note?: string): Promise<T> {
    const answer = await this.request(method, params, note);
    if ('error' in answer) throw new UnexpectedRpcError(`${method} failed: ${JSON.stringify(answer.error)}`);
    return answer.result as T;
  }

  /** Sends a malformed request line that carries `id` (or none) and waits for the error it earns. */
  async requestRaw(line: string, answerId: number | string | null, note?: string): Promise<WireMessage> {
    if (typeof answerId === 'number' && answerId >= this.nextId) this.nextId = answerId + 1;
    this.sendRaw(line, note);
    return this.waitForAnswer(answerId);
  }

  /** The first unread server message matching `predicate` (earlier non-matches stay unread). */
  async waitFor(
    predicate: (message: WireMessage) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<WireMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.unread.findIndex(predicate);
      if (index !== -1) return this.unread.splice(index, 1)[0];
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`the server exited before the expected message; stderr:\n${this.stderrText}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(`timed out waiting for a server message; stderr:\n${this.stderrText}`);
      await new Promise<void>((resolve) => {
        const waker = (): void => {
          clearTimeout(timer);
          this.wakers.delete(waker);
          resolve();
        };
        const timer = setTimeout(waker, remaining);
        this.wakers.add(waker);
      });
    }
  }

  /** Waits for the notification `method` whose params match every given member. */
  waitForNotification(method: string, params: Record<string, unknown> = {}): Promise<WireMessage> {
    return this.waitFor((message) => {
      if (message.method !== method || 'id' in message) return false;
      const actual = (message.params ?? {}) as Record<string, unknown>;
      return Object.entries(params).every(([key, value]) => actual[key] === value);
    });
  }

  /** Closes stdin (graceful shutdown, docs/spec/protocol.md §1.9) and resolves with the exit code. */
  async finish(timeoutMs = DEFAULT_WAIT_MS): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private waitForAnswer(id: number | string | null): Promise<WireMessage> {
    return this.waitFor((message) => !('method' in message) && message.id === id);
  }

  private onStdout(chunk: string): void {
    const parts = (this.stdoutRest + chunk).split('\n');
    this.stdoutRest = parts.pop() ?? '';
    for (const part of parts) {
      if (part.trim() === '') continue;
      const message: unknown = JSON.parse(part);
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        throw new Error(`the server wrote a non-object line: ${part}`);
      }
      this.lines.push({ direction: SERVER_TO_CLIENT, message: message as WireMessage });
      this.unread.push(message as WireMessage);
    }
    this.wake();
  }

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }
}
