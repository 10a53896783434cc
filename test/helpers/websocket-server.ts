/**
 * The real CLI listening on `ws://127.0.0.1:0` and real `ws` clients for the WebSocket e2e tests
 * (docs/spec/websocket.md §8):
 *
 *   const server = await WsServerProcess.start(sandbox, { token });   // waits for the readiness line
 *   const peer = await WsPeer.connect(server.url, { token });          // one connection
 *   await peer.initialize();
 *   const { threadId } = await peer.startThread();
 *   await server.stop();                                               // SIGTERM, resolves with the exit
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket, { type ClientOptions } from 'ws';
import { READINESS_LINE } from './jsonl-child';
import {
  RpcFailure,
  paramsOf,
  type E2eSandbox,
  type JsonMessage,
  type RpcErrorBody,
} from './app-server-session';

export const TEST_TOKEN = 'e2e-token-0123456789abcdef';

export interface WsServerOptions {
  /** Written to a token file passed as `--ws-token-file`; without it `--ws-no-auth`. */
  token?: string;
  /** Extra CLI arguments. */
  args?: string[];
  /** Listen address (default `ws://127.0.0.1:0`). */
  listen?: string;
  store?: string;
  env?: NodeJS.ProcessEnv;
}

export class WsServerProcess {
  private stderrText = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url = '';
  port = 0;

  private constructor(readonly process: ChildProcessWithoutNullStreams) {
    process.stderr.setEncoding('utf8');
    process.stderr.on('data', (chunk: string) => (this.stderrText += chunk));
    process.stdout.setEncoding('utf8');
    process.stdout.on('data', (chunk: string) => (this.stdoutText += chunk));
    this.exited = new Promise((resolve) => process.on('close', (code, signal) => resolve({ code, signal })));
  }

  /** Everything the server wrote to stdout (must stay empty in ws mode). */
  stdoutText = '';

  get stderr(): string {
    return this.stderrText;
  }

  /** Spawns the CLI; resolves once listening, or rejects with stderr when it exited first. */
  static async start(sandbox: E2eSandbox, options: WsServerOptions = {}): Promise<WsServerProcess> {
    const server = WsServerProcess.spawn(sandbox, options);
    await server.ready();
    return server;
  }

  static spawn(sandbox: E2eSandbox, options: WsServerOptions = {}): WsServerProcess {
    const listen = [options.listen ?? 'ws://127.0.0.1:0'];
    if (options.token !== undefined) {
      const tokenFile = join(sandbox.root, `token-${Math.random().toString(36).slice(2)}`);
      writeFileSync(tokenFile, `${options.token}\n`);
      listen.push('--ws-token-file', tokenFile);
    } else {
      listen.push('--ws-no-auth');
    }
    const { args, cwd, env } = sandbox.serverCommand(
      { args: options.args, store: options.store, env: options.env },
      listen,
    );
    return new WsServerProcess(spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  async ready(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = READINESS_LINE.exec(this.stderrText);
      if (match !== null) {
        this.url = match[1];
        this.port = Number(new URL(this.url).port);
        return;
      }
      if (this.process.exitCode !== null) throw new Error(`server exited: ${this.stderrText}`);
      if (Date.now() > deadline) throw new Error(`server not ready: ${this.stderrText}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  get httpBase(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  waitExit(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    return this.exited.finally(() => clearTimeout(timer));
  }

  /** SIGTERM and the exit. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
    return this.waitExit();
  }

  async kill(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    await this.exited;
  }
}

export interface WsPeerOptions {
  token?: string;
  /** Token form: subprotocol entry (default) or `Authorization: Bearer`. */
  tokenVia?: 'subprotocol' | 'header';
  protocols?: string[];
  headers?: Record<string, string>;
}

/** One real WebSocket client: messages in arrival order, a request/response helper, the close code. */
export class WsPeer {
  readonly received: JsonMessage[] = [];
  readonly invalidFrames: string[] = [];
  private readonly unread: JsonMessage[] = [];
  private waiters: Array<() => void> = [];
  private nextId = 1;
  closeEvent: { code: number; reason: string } | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;

  private stallWhen: ((m: JsonMessage) => boolean) | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      try {
        const message = JSON.parse(text) as JsonMessage;
        this.received.push(message);
        this.unread.push(message);
        if (this.stallWhen?.(message) === true) {
          this.stallWhen = null;
          this.stopReading();
        }
      } catch {
        this.invalidFrames.push(text);
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        this.closeEvent = { code, reason: reason.toString() };
        this.wake();
        resolve(this.closeEvent);
      }),
    );
  }

  static connect(url: string, options: WsPeerOptions = {}): Promise<WsPeer> {
    const protocols = [...(options.protocols ?? [])];
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) {
      if (options.tokenVia === 'header') headers.authorization = `Bearer ${options.token}`;
      else {
        // The server never selects the token entry; a client offering subprotocols must get one back.
        if (!protocols.includes('vv-agent-app-server.v1')) protocols.push('vv-agent-app-server.v1');
        protocols.push(`vv-agent-token.${options.token}`);
      }
    }
    const clientOptions: ClientOptions = { headers };
    const socket = new WebSocket(url, protocols, clientOptions);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsPeer(socket)));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject(new UpgradeRefused(response.statusCode ?? 0, body)));
      });
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  async request(method: string, params?: unknown, timeoutMs = 15_000): Promise<JsonMessage> {
    const id = this.nextId++;
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id && !('method' in m), timeoutMs);
  }

  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const answer = await this.request(method, params);
    if ('error' in answer) throw new RpcFailure(method, answer.error as RpcErrorBody);
    return answer.result as T;
  }

  async initialize(): Promise<void> {
    await this.call('initialize', { clientInfo: { name: 'ws-e2e', version: '0.0.0' } });
    this.send({ jsonrpc: '2.0', method: 'initialized' });
  }

  async startThread(params: Record<string, unknown> = {}): Promise<{ threadId: string }> {
    const result = await this.call<{ threadId: string }>('thread/start', params);
    await this.waitFor((m) => m.method === 'thread/started' && paramsOf(m).threadId === result.threadId);
    return result;
  }

  next(timeoutMs = 15_000): Promise<JsonMessage> {
    return this.waitFor(() => true, timeoutMs);
  }

  async waitFor(predicate: (m: JsonMessage) => boolean, timeoutMs = 20_000): Promise<JsonMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.unread.findIndex(predicate);
      if (index !== -1) return this.unread.splice(index, 1)[0];
      if (this.closeEvent !== null) throw new Error(`socket closed ${JSON.stringify(this.closeEvent)}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; unread: ${JSON.stringify(this.unread).slice(0, 2000)}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  async collectUntil(predicate: (m: JsonMessage) => boolean, timeoutMs = 20_000): Promise<JsonMessage[]> {
    const collected: JsonMessage[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await this.next(Math.max(1, deadline - Date.now()));
      collected.push(message);
      if (predicate(message)) return collected;
    }
  }

  /** Stops reading right after the first message matching `predicate` arrives. */
  stopReadingAfter(predicate: (m: JsonMessage) => boolean): void {
    this.stallWhen = predicate;
  }

  /**
   * Stops reading from the TCP socket: the server's writes pile up (a stalled consumer). Through
   * `ws`'s own pause: pausing the raw socket is undone as soon as `ws`'s frame parser drains.
   */
  stopReading(): void {
    this.socket.pause();
  }

  resumeReading(): void {
    this.socket.resume();
  }

  /** The close event; rejects when none comes within `timeoutMs`, so a missing close fails at once. */
  async closedWithin(timeoutMs = 20_000): Promise<{ code: number; reason: string }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }

  /** Drops the TCP connection without a close handshake. */
  terminate(): Promise<{ code: number; reason: string }> {
    this.socket.terminate();
    return this.closed;
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused: ${status} ${body}`);
  }
}
