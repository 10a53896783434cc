/**
 * A small driver for a child process that speaks JSONL on stdin/stdout (the stdio App Server):
 * send lines or raw bytes, read the next stdout message with a timeout, collect everything, close
 * stdin, wait for the exit. Every stdout line must be JSON: a line that is not is recorded in
 * `invalidLines` (tests assert stdout purity with it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import WebSocket from 'ws';

export type JsonMessage = Record<string, unknown>;

export interface JsonlChildOptions {
  /** Arguments after `node`; e.g. `[dist/main.js, 'app-server', …]`. */
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Speak to the child over one WebSocket instead of stdin/stdout: the child was started with
   * `--listen ws://…`; the socket opens once the readiness line names the port. `closeStdin` then
   * means "shut the server down" (SIGTERM), the WebSocket counterpart of stdin EOF.
   */
  websocket?: { token?: string };
}

/** docs/spec/websocket.md §1: the stderr readiness line. */
export const READINESS_LINE = /vv-agent app-server listening on (ws:\/\/\S+)/;

export const DIST_MAIN = resolve(__dirname, '../../dist/main.js');

/** What AppServerSession needs of a child speaking JSON-RPC: JSONL (this file) or native messaging frames. */
export interface MessageChild {
  readonly process: ChildProcessWithoutNullStreams;
  /** Every message read, in order (consumed or not). */
  readonly received: JsonMessage[];
  /** Output units (lines, frames) that were not one JSON value. */
  readonly invalidLines: string[];
  readonly stderr: string;
  send(message: unknown): void;
  next(timeoutMs?: number): Promise<JsonMessage>;
  waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs?: number): Promise<JsonMessage>;
  takeUnread(): JsonMessage[];
  closeStdin(): void;
  kill(signal?: NodeJS.Signals): void;
  waitExit(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export class JsonlChild implements MessageChild {
  readonly process: ChildProcessWithoutNullStreams;
  /** Every stdout line that parsed as JSON, in order (consumed or not). */
  readonly received: JsonMessage[] = [];
  /** stdout lines that were not a single JSON value. */
  readonly invalidLines: string[] = [];
  private readonly unread: JsonMessage[] = [];
  private waiters: Array<() => void> = [];
  private stdoutRest = '';
  private stderrText = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private socket: WebSocket | null = null;
  private socketOpen: Promise<void> | null = null;
  /** Close code of the WebSocket once it closed (ws mode). */
  closeCode: number | null = null;

  constructor(private readonly options: JsonlChildOptions) {
    this.process = spawn(process.execPath, options.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.process.stdout.setEncoding('utf8');
    this.process.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    this.process.stderr.setEncoding('utf8');
    this.process.stderr.on('data', (chunk: string) => {
      this.stderrText += chunk;
      if (options.websocket !== undefined && this.socket === null) {
        const url = READINESS_LINE.exec(this.stderrText)?.[1];
        if (url !== undefined) this.openSocket(url, options.websocket.token);
      }
    });
    // Writes after the child exited fail with EPIPE; tests observe that through exit codes instead.
    this.process.stdin.on('error', () => undefined);
    this.exited = new Promise((resolveExit) => {
      this.process.on('close', (code, signal) => {
        this.wake();
        resolveExit({ code, signal });
      });
    });
  }

  static spawnNode(args: string[], options: Omit<JsonlChildOptions, 'args'> = {}): JsonlChild {
    return new JsonlChild({ ...options, args });
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Sends one message as a compact JSON line. */
  send(message: unknown): void {
    this.sendLine(JSON.stringify(message));
  }

  /** Sends a line as is, adding the `\n` terminator (ws mode: one text frame without it). */
  sendLine(line: string): void {
    if (this.isWebSocket) this.sendFrame(line);
    else this.process.stdin.write(`${line}\n`);
  }

  /** Sends raw bytes (no terminator added; ws mode: one text frame). */
  sendRaw(bytes: Buffer | string): void {
    if (this.isWebSocket) this.sendFrame(bytes);
    else this.process.stdin.write(bytes);
  }

  get isWebSocket(): boolean {
    return this.socketOpen !== null || this.wantsSocket;
  }

  private get wantsSocket(): boolean {
    return this.websocketOptions !== undefined;
  }

  private get websocketOptions(): { token?: string } | undefined {
    return this.options.websocket;
  }

  /** Frames are sent in order once the socket is open. */
  private sendFrame(data: Buffer | string): void {
    const frame = (): void => {
      if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(data, { binary: false });
    };
    if (this.socketOpen === null) {
      this.pendingFrames.push(frame);
      return;
    }
    this.outbound = this.outbound.then(() => this.socketOpen).then(frame, () => undefined);
  }

  private pendingFrames: Array<() => void> = [];
  private outbound: Promise<unknown> = Promise.resolve();

  private openSocket(url: string, token: string | undefined): void {
    const protocols = token === undefined ? [] : ['vv-agent-app-server.v1', `vv-agent-token.${token}`];
    const socket = new WebSocket(url, protocols);
    this.socket = socket;
    this.socketOpen = new Promise<void>((opened, failed) => {
      socket.once('open', () => opened());
      socket.once('error', failed);
    });
    this.socketOpen.catch(() => undefined);
    for (const frame of this.pendingFrames.splice(0))
      this.outbound = this.outbound.then(() => this.socketOpen).then(frame, () => undefined);
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.invalidLines.push(`binary frame of ${String((data as Buffer).length)} bytes`);
      else this.onMessageText(data.toString());
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  /** ws mode: one frame is one message (no line splitting). */
  private onMessageText(text: string): void {
    try {
      const message = JSON.parse(text) as JsonMessage;
      this.received.push(message);
      this.unread.push(message);
    } catch {
      this.invalidLines.push(text);
    }
  }

  /** Sends a request and waits for the response or error with the same id. */
  async request(
    id: string | number,
    method: string,
    params?: unknown,
    timeoutMs = 10_000,
  ): Promise<JsonMessage> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id && !('method' in m), timeoutMs);
  }

  /** The next unread stdout message; rejects after `timeoutMs` or when stdout ended first. */
  async next(timeoutMs = 10_000): Promise<JsonMessage> {
    return this.waitFor(() => true, timeoutMs);
  }

  /** Removes and returns the first unread message matching `predicate` (earlier non-matches stay unread). */
  async waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs = 10_000): Promise<JsonMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.unread.findIndex(predicate);
      if (index !== -1) return this.unread.splice(index, 1)[0];
      if (this.process.exitCode !== null || this.process.signalCode !== null || this.closeCode !== null) {
        throw new Error(`child exited before the expected message; stderr:\n${this.stderrText}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(`timed out waiting for a message; unread: ${JSON.stringify(this.unread)}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  /** Every unread message so far (drains the unread list). */
  takeUnread(): JsonMessage[] {
    return this.unread.splice(0);
  }

  /** Closes stdin (EOF); ws mode: SIGTERM once everything sent so far is on the socket. */
  closeStdin(): void {
    if (!this.isWebSocket) {
      this.process.stdin.end();
      return;
    }
    void this.outbound.then(() => {
      if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
    });
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.process.kill(signal);
  }

  /** Waits for the exit; SIGKILLs the child after `timeoutMs`. Resolves with code and signal. */
  async waitExit(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes stdin, waits for the exit, and returns every message that was never read. */
  async collectAll(timeoutMs = 10_000): Promise<JsonMessage[]> {
    this.closeStdin();
    await this.waitExit(timeoutMs);
    return this.takeUnread();
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split('\n');
    this.stdoutRest = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const message = JSON.parse(line) as JsonMessage;
        this.received.push(message);
        this.unread.push(message);
      } catch {
        this.invalidLines.push(line);
      }
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
