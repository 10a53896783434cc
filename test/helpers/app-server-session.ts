/**
 * A driver for the real stdio App Server (`node dist/main.js app-server --listen stdio …`) in e2e tests.
 *
 *   const sandbox = await E2eSandbox.create('vv-turns-');   // temp dir, fake model server, settings file
 *   sandbox.model.enqueue(finishReply('done'));
 *   const session = sandbox.spawn();                        // real sqlite store in the temp dir
 *   await session.initialize();
 *   const { threadId } = await session.startThread();       // also consumes thread/started
 *   const turn = await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'hi' }] });
 *   const traffic = await session.collectUntil(isTurnCompleted(threadId));
 *   await sandbox.dispose();                                // kills children, closes the model server
 *
 * Request ids are integers from 1. `call` resolves with the result and throws `RpcFailure` on an
 * error; `failure` expects an error. `collectUntil` reads the unread stdout messages in arrival order.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOpenAiServer, fakeSettingsDocument } from './fake-openai-server';
import { DIST_MAIN, JsonlChild, type JsonMessage, type MessageChild } from './jsonl-child';
import { assertValidServerMessage } from './schema-validation';
import {
  STORE_DRIVERS,
  createPostgresDatabaseSync,
  dropPostgresDatabase,
  postgresDatabaseUrl,
  type StoreDriverName,
} from '../support/store-drivers';

export type { JsonMessage } from './jsonl-child';

export const BACKEND = 'local';
export const MODEL = 'test-model';
export const ID_PATTERN = {
  thread: /^thread_[0-9a-f]{32}$/,
  turn: /^turn_[0-9a-f]{32}$/,
  item: /^item_[0-9a-f]{32}$/,
  run: /^run_[0-9a-f]{32}$/,
  approval: /^approval_[0-9a-f]{32}$/,
};

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error answer where a result was expected. */
export class RpcFailure extends Error {
  constructor(
    readonly method: string,
    readonly error: RpcErrorBody,
  ) {
    super(`${method} failed: ${JSON.stringify(error)}`);
  }
}

/**
 * Which transport `E2eSandbox.spawn` speaks: stdio (default), or one WebSocket to a server on
 * `ws://127.0.0.1:0` (`--ws-no-auth`) — the protocol suites run over both (docs/spec/websocket.md §8).
 */
export type E2eTransport = 'stdio' | 'ws';
let e2eTransport: E2eTransport = 'stdio';

/** Selects the transport of every later `spawn` in this test file. */
export function useTransport(transport: E2eTransport): void {
  e2eTransport = transport;
}

export function currentTransport(): E2eTransport {
  return e2eTransport;
}

/**
 * The store drivers a protocol suite runs on under the current transport: both over stdio
 * (docs/spec/postgres.md §1), SQLite only over ws. The transport sits above the core and never reaches the
 * store, so PostgreSQL × ws would cost a whole suite run more and test nothing the stdio run does not.
 */
export function storeDriversForTransport(): readonly StoreDriverName[] {
  return e2eTransport === 'stdio' ? STORE_DRIVERS : ['sqlite'];
}

/** `it` for tests about stdio itself (byte framing, stdin EOF, stdout purity): skipped over ws. */
export const stdioOnlyIt: jest.It = new Proxy(it, {
  apply: (target, self, args: Parameters<jest.It>) =>
    (e2eTransport === 'stdio' ? target : it.skip).apply(self, args),
});

export interface SpawnOptions {
  /** Extra CLI arguments after the required ones (e.g. `['--approval-timeout-seconds', '1']`). */
  args?: string[];
  /** Store file name inside the sandbox (default `store.sqlite`), or `:memory:`. */
  store?: string;
  /** The `--store` value verbatim (e.g. an unreachable postgres:// URL); wins over `store`. */
  storeArg?: string;
  /** Extra environment variables. */
  env?: NodeJS.ProcessEnv;
}

/** A temp dir with a settings file pointing at a fresh fake model server, and the children spawned in it. */
export class E2eSandbox {
  private readonly sessions: AppServerSession[] = [];
  /** PostgreSQL databases standing in for store file names, by name. */
  private readonly databases = new Map<string, string>();

  private constructor(
    readonly root: string,
    readonly model: FakeOpenAiServer,
    readonly settingsPath: string,
    /** An existing directory to use as a thread `cwd` (absolute). */
    readonly workspace: string,
    /** Which store `--store <name>` means: a sqlite file in the sandbox, or a database per name. */
    readonly storeDriver: StoreDriverName,
  ) {}

  /**
   * `contextLength`: the model's `context_length` in the settings file (default 128000).
   * `storeDriver`: default sqlite; postgres gives each store name a database of its own on the
   * test server (postgres.global-setup.ts), dropped at dispose.
   */
  static async create(
    prefix: string,
    options: {
      contextLength?: number;
      storeDriver?: StoreDriverName;
      /** Where the temp dir is made (default the OS temp dir, which a sandboxed command sees as its private `/tmp`). */
      parentDir?: string;
      /** The endpoint's `api_key` in the settings file (default `sk-test`). */
      apiKey?: string;
    } = {},
  ): Promise<E2eSandbox> {
    const root = mkdtempSync(join(options.parentDir ?? tmpdir(), prefix));
    const model = await FakeOpenAiServer.start();
    const settingsPath = join(root, 'settings.json');
    writeFileSync(
      settingsPath,
      JSON.stringify(
        fakeSettingsDocument({
          endpoints: [{ id: 'fake', apiBase: model.baseUrl, apiKey: options.apiKey }],
          backend: BACKEND,
          model: MODEL,
          contextLength: options.contextLength,
        }),
      ),
    );
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    return new E2eSandbox(root, model, settingsPath, workspace, options.storeDriver ?? 'sqlite');
  }

  /** The `--store` value for a store name: a file in the sandbox, or (postgres) its database's URL. */
  storePath(name = 'store.sqlite'): string {
    if (name === ':memory:') return name;
    if (this.storeDriver === 'sqlite') return join(this.root, name);
    let database = this.databases.get(name);
    if (database === undefined) {
      database = createPostgresDatabaseSync();
      this.databases.set(name, database);
    }
    return postgresDatabaseUrl(database);
  }

  /** `node dist/main.js app-server --listen stdio …` against this sandbox's settings and model. */
  serverCommand(
    options: SpawnOptions = {},
    listen: string[] = ['stdio'],
  ): { args: string[]; cwd: string; env: NodeJS.ProcessEnv } {
    const args = [
      DIST_MAIN,
      'app-server',
      '--listen',
      ...listen,
      '--settings',
      this.settingsPath,
      '--backend',
      BACKEND,
      '--model',
      MODEL,
      '--store',
      options.storeArg ?? this.storePath(options.store),
      ...(options.args ?? []),
    ];
    return { args, cwd: this.root, env: { ...process.env, VV_AGENT_HOME: this.root, ...options.env } };
  }

  spawn(options: SpawnOptions = {}): AppServerSession {
    const ws = e2eTransport === 'ws';
    const listen = ws ? ['ws://127.0.0.1:0', '--ws-no-auth'] : ['stdio'];
    const { args, cwd, env } = this.serverCommand(options, listen);
    const child = JsonlChild.spawnNode(args, { cwd, env, ...(ws ? { websocket: {} } : {}) });
    const session = new AppServerSession(child);
    this.sessions.push(session);
    return session;
  }

  /** Drives a child started another way (e.g. a native messaging host); disposed of with the others. */
  attach(child: MessageChild, options: SessionOptions = {}): AppServerSession {
    const session = new AppServerSession(child, options);
    this.sessions.push(session);
    return session;
  }

  /** Writes a `VV_AGENT_SCRIPTED_MODEL_FILE` script (docs/spec/runtime.md §15.3) and returns its env entry. */
  scriptEnv(steps: unknown[]): NodeJS.ProcessEnv {
    const path = join(this.root, `script-${this.sessions.length}.json`);
    writeFileSync(path, JSON.stringify({ steps }));
    return { VV_AGENT_SCRIPTED_MODEL_FILE: path };
  }

  /**
   * Kills the children, closes the model server and removes the temp dir; then fails if any child
   * wrote a stdout line that is not valid JSON-RPC or does not match the committed schemas (§1.1, §11).
   */
  async dispose(): Promise<void> {
    const problems: string[] = [];
    for (const session of this.sessions.splice(0)) {
      await session.kill();
      problems.push(...session.transcriptProblems());
    }
    await this.model.close();
    for (const database of this.databases.values()) await dropPostgresDatabase(database);
    this.databases.clear();
    rmSync(this.root, { recursive: true, force: true });
    if (problems.length > 0) throw new Error(`invalid server output:\n${problems.join('\n')}`);
  }
}

export class AppServerSession {
  private nextId = 1;
  /** The method of every request sent, by JSON id, to check each response against its result schema. */
  private readonly methodsById = new Map<string, string>();

  constructor(
    readonly child: MessageChild,
    private readonly options: SessionOptions = {},
  ) {}

  /** Sends any message as one JSON line. */
  send(message: unknown): void {
    if (message !== null && typeof message === 'object' && 'id' in message && 'method' in message) {
      const { id, method } = message as { id: unknown; method: unknown };
      if (typeof method === 'string') this.methodsById.set(JSON.stringify(id), method);
    }
    this.child.send(message);
  }

  /** Sends a request and resolves with the full response or error envelope. */
  async request(method: string, params?: unknown, timeoutMs = 15_000): Promise<JsonMessage> {
    const id = this.nextId++;
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.child.waitFor((m) => m.id === id && !('method' in m), timeoutMs);
  }

  /** Sends a request and resolves with its result; an error answer rejects with RpcFailure. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const answer = await this.request(method, params);
    if ('error' in answer) throw new RpcFailure(method, answer.error as RpcErrorBody);
    return answer.result as T;
  }

  /** Sends a request that must fail and resolves with its `error` object. */
  async failure(method: string, params?: unknown): Promise<RpcErrorBody> {
    const answer = await this.request(method, params);
    if (!('error' in answer)) throw new Error(`${method} unexpectedly succeeded: ${JSON.stringify(answer)}`);
    return answer.error as RpcErrorBody;
  }

  async initialize(capabilities?: Record<string, unknown>): Promise<void> {
    await this.call('initialize', {
      clientInfo: { name: 'e2e', version: '0.0.0' },
      ...(capabilities ? { capabilities } : {}),
    });
    this.send({ jsonrpc: '2.0', method: 'initialized' });
  }

  /** `thread/start`; also consumes the `thread/started` that follows the response. */
  async startThread(params: Record<string, unknown> = {}): Promise<ThreadStartResult> {
    const result = await this.call<ThreadStartResult>('thread/start', params);
    await this.child.waitFor(
      (m) => m.method === 'thread/started' && paramsOf(m).threadId === result.threadId,
    );
    return result;
  }

  /** The next unread message. */
  next(timeoutMs = 15_000): Promise<JsonMessage> {
    return this.child.next(timeoutMs);
  }

  /** Reads unread messages in order until one matches; returns all of them, the match last. */
  async collectUntil(predicate: (m: JsonMessage) => boolean, timeoutMs = 20_000): Promise<JsonMessage[]> {
    const deadline = Date.now() + timeoutMs;
    const collected: JsonMessage[] = [];
    for (;;) {
      const message = await this.child.next(Math.max(1, deadline - Date.now())).catch((error: Error) => {
        throw new Error(`${error.message}\ncollected so far: ${JSON.stringify(collected)}`);
      });
      collected.push(message);
      if (predicate(message)) return collected;
    }
  }

  /** Removes the first unread message matching `predicate` (waiting for it). */
  waitFor(predicate: (m: JsonMessage) => boolean, timeoutMs = 20_000): Promise<JsonMessage> {
    return this.child.waitFor(predicate, timeoutMs);
  }

  /**
   * Sends a `model/list` marker request and returns every message that arrived before its response.
   * Requests are answered in order and answers to server requests are handled on arrival, so output
   * caused by anything sent earlier precedes the marker's response.
   */
  async drain(): Promise<JsonMessage[]> {
    const id = `marker-${this.nextId++}`;
    this.send({ jsonrpc: '2.0', id, method: 'model/list' });
    const messages = await this.collectUntil((m) => m.id === id && !('method' in m));
    return messages.slice(0, -1);
  }

  /** Answers a server request with a result. */
  answer(id: unknown, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  /** Answers a server request with a JSON-RPC error. */
  answerError(id: unknown, error: RpcErrorBody): void {
    this.send({ jsonrpc: '2.0', id, error });
  }

  /** Closes stdin and waits for the exit code. */
  async close(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.closeStdin();
    return this.child.waitExit(timeoutMs);
  }

  async kill(): Promise<void> {
    const proc = this.child.process;
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await this.child.waitExit();
  }

  /**
   * Every stdout line that is not JSON, or whose message does not match the committed schemas
   * (responses checked against their method's result schema).
   */
  transcriptProblems(): string[] {
    const problems = this.child.invalidLines.map((line) => `not JSON: ${line}`);
    for (const message of this.child.received) {
      const method = 'method' in message ? undefined : this.methodsById.get(JSON.stringify(message.id));
      try {
        assertValidServerMessage(
          this.options.nativeMessaging ? withoutTruncationMark(message) : message,
          method,
        );
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return problems;
  }

  /** Every stdout line so far was a JSON-RPC 2.0 object (stdout is protocol only, §1.1). */
  expectCleanStdout(): JsonMessage[] {
    if (this.child.invalidLines.length > 0) {
      throw new Error(`non-JSON stdout lines: ${JSON.stringify(this.child.invalidLines)}`);
    }
    for (const message of this.child.received) {
      if (
        message === null ||
        typeof message !== 'object' ||
        Array.isArray(message) ||
        message.jsonrpc !== '2.0'
      ) {
        throw new Error(`not a JSON-RPC 2.0 object on stdout: ${JSON.stringify(message)}`);
      }
    }
    return this.child.received;
  }
}

export interface SessionOptions {
  /**
   * The session runs over native messaging: a message shortened to the 1 MiB limit carries
   * `truncated: true` in its params / result (docs/spec/native-messaging.md §1), a transport annotation outside
   * the v1 schemas, which is set aside before the schema check.
   */
  nativeMessaging?: boolean;
}

/** The message without the native messaging `truncated: true` mark of its params / result. */
function withoutTruncationMark(message: JsonMessage): JsonMessage {
  const key = 'result' in message ? 'result' : 'params';
  const body = message[key];
  if (body === null || typeof body !== 'object' || (body as Record<string, unknown>).truncated !== true)
    return message;
  const { truncated: _truncated, ...rest } = body as Record<string, unknown>;
  return { ...message, [key]: rest };
}

export interface ThreadStartResult {
  threadId: string;
  agentKey: string;
  cwd: string | null;
  status: string;
}

/** `params` of a notification or server request (`{}` when absent). */
export function paramsOf(message: JsonMessage): Record<string, unknown> {
  const params = message.params;
  return params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
}

export const isTurnCompleted =
  (threadId?: string) =>
  (m: JsonMessage): boolean =>
    m.method === 'turn/completed' && (threadId === undefined || paramsOf(m).threadId === threadId);

export const isMethod =
  (method: string) =>
  (m: JsonMessage): boolean =>
    m.method === method;

/** `method` plus, for items, `(type)` — a compact view of a notification stream for order assertions. */
export function describeMessage(m: JsonMessage): string {
  if (typeof m.method !== 'string') return 'id' in m ? `response(${String(m.id)})` : 'unknown';
  const p = paramsOf(m);
  if (m.method.startsWith('item/')) return `${m.method}(${String(p.type)})`;
  if (m.method === 'thread/status/changed') return `${m.method}(${String(p.status)})`;
  return m.method;
}

/** An item notification's params without the `delta` member (what replay must equal, §8.5). */
export function itemState(m: JsonMessage): Record<string, unknown> {
  const { delta: _delta, ...state } = paramsOf(m);
  return state;
}

/** The last notified state of every item, in order of first appearance (§8.5 replay invariant). */
export function lastItemStates(messages: JsonMessage[]): Array<Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  for (const m of messages) {
    if (typeof m.method !== 'string' || !m.method.startsWith('item/')) continue;
    const state = itemState(m);
    const previous = byId.get(String(state.itemId));
    // A delta carries only its chunk (§4.8 v1.1): the item's text so far is what came before plus it.
    if (m.method === 'item/agentMessage/delta' && previous) {
      const before = (previous.payload as Record<string, unknown>).text;
      state.payload = { text: `${String(before ?? '')}${String(paramsOf(m).delta ?? '')}` };
    }
    byId.set(String(state.itemId), state);
  }
  return [...byId.values()];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a non-undefined value. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}
