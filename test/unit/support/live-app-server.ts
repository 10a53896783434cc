/**
 * An in-process App Server over a real temp sqlite store and the scripted model, driven with raw
 * JSON lines through `core.connect(sink)` — what the thread, turn and approval specs share.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../src/runtime/agent';
import { Runner } from '../../../src/runtime/runner';
import {
  ScriptedModelProvider,
  type ScriptObjectStep,
  type ScriptStep,
} from '../../../src/runtime/model/scripted-model';
import type {
  LlmClient,
  LlmRequest,
  LlmResponse,
  ModelProvider,
  ModelRef,
  ResolvedModelConfig,
  StreamCallbacks,
} from '../../../src/runtime/model/types';
import type { ApprovalPolicy } from '../../../src/runtime/approvals/types';
import type { RunConfig } from '../../../src/runtime/run-config';
import type { BuiltinToolName, ToolDefinition } from '../../../src/runtime/tools/types';
import type { AppServerHost } from '../../../src/core/host/app-server-host';
import { startInProcessAppServer, type InProcessAppServer } from '../../../src/nest/in-process-app-server';
import type { Connection } from '../../../src/rpc/connection';
import type { MessageSink } from '../../../src/rpc/message-sink';
import { SilentLogger } from './in-process-core';

export type WireMessage = Record<string, unknown> & {
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

const DEFAULT_WAIT_MS = 5_000;

interface Waiter {
  from: number;
  predicate: (message: WireMessage) => boolean;
  resolve: (message: WireMessage) => void;
}

/** One in-process connection: raw lines in, parsed messages recorded in arrival order. */
export class WireClient implements MessageSink {
  readonly messages: WireMessage[] = [];
  readonly connection: Connection;
  private nextId = 1;
  private waiters: Waiter[] = [];

  constructor(private readonly server: InProcessAppServer) {
    this.connection = server.core.connect(this);
  }

  write(line: string): boolean {
    const message = JSON.parse(line) as WireMessage;
    this.messages.push(message);
    const index = this.messages.length - 1;
    for (const waiter of [...this.waiters]) {
      if (index >= waiter.from && waiter.predicate(message)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      }
    }
    return true;
  }

  onDrain(callback: () => void): void {
    setImmediate(callback);
  }

  sendRaw(value: unknown): void {
    this.server.core.receiveLine(this.connection, JSON.stringify(value));
  }

  /** Sends a request and resolves with its response or error message. */
  async request(method: string, params?: unknown): Promise<WireMessage> {
    const id = this.nextId++;
    const from = this.messages.length;
    this.sendRaw(
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
    );
    return this.waitFor((m) => m.id === id && m.method === undefined, { from });
  }

  /** Sends a request and resolves with its result; throws on an error response. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const response = await this.request(method, params);
    if (response.error !== undefined) {
      throw new Error(`${method} failed: ${response.error.code} ${response.error.message}`);
    }
    return response.result as T;
  }

  respond(id: string, result: unknown): void {
    this.sendRaw({ jsonrpc: '2.0', id, result });
  }

  respondError(id: string, error: { code: number; message: string }): void {
    this.sendRaw({ jsonrpc: '2.0', id, error });
  }

  /** The first message (at index ≥ from) matching `predicate`, waiting for it when needed. */
  waitFor(
    predicate: (message: WireMessage) => boolean,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<WireMessage> {
    const from = options.from ?? 0;
    const found = this.messages.slice(from).find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<WireMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for a message; received: ${this.describe(from)}`));
      }, options.timeoutMs ?? DEFAULT_WAIT_MS);
      const waiter: Waiter = {
        from,
        predicate,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Waits until `count` messages (index ≥ from) match, and returns the first `count` of them. */
  async waitForCount(
    predicate: (message: WireMessage) => boolean,
    count: number,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<WireMessage[]> {
    const from = options.from ?? 0;
    let seen = 0;
    await this.waitFor((message) => predicate(message) && ++seen >= count, options);
    return this.messages.slice(from).filter(predicate).slice(0, count);
  }

  /** Waits for a notification / server request with this method (and optional params match). */
  waitForMethod(
    method: string,
    match: (params: Record<string, unknown>) => boolean = () => true,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<WireMessage> {
    return this.waitFor((m) => m.method === method && match(m.params ?? {}), options);
  }

  /** Notifications and server requests (messages with a method), from index `from`. */
  traffic(from = 0): WireMessage[] {
    return this.messages.slice(from).filter((m) => m.method !== undefined);
  }

  /** `method` or `method(status)` labels of the traffic, for order assertions. */
  labels(from = 0): string[] {
    return this.traffic(from).map(label);
  }

  disconnect(): void {
    this.server.core.disconnect(this.connection);
  }

  private describe(from: number): string {
    return JSON.stringify(this.messages.slice(from).map((m) => m.method ?? `response#${String(m.id)}`));
  }
}

/** `item/completed(userMessage)`, `thread/status/changed(idle)`, `approval/request`, … */
export function label(message: WireMessage): string {
  const params = message.params ?? {};
  if (message.method === 'thread/status/changed') return `thread/status/changed(${String(params.status)})`;
  if (typeof message.method === 'string' && message.method.startsWith('item/')) {
    return `${message.method}(${String(params.type)})`;
  }
  return String(message.method);
}

/** Splits streamed content at this marker into several `assistant_delta` chunks (removed from the text). */
export const CHUNK = '\u00a6';

/**
 * The scripted model, except that content containing CHUNK streams as several fragments — the
 * scripted client alone streams exactly one fragment per call (docs/spec/runtime.md §15.2).
 */
class ChunkingModelProvider implements ModelProvider {
  constructor(private readonly scripted: ScriptedModelProvider) {}

  resolve(ref: ModelRef): ResolvedModelConfig {
    return this.scripted.resolve(ref);
  }

  defaultModelRef(): ModelRef {
    return this.scripted.defaultModelRef();
  }

  client(resolved: ResolvedModelConfig): LlmClient {
    const inner = this.scripted.client(resolved);
    return {
      async complete(
        request: LlmRequest,
        callbacks: StreamCallbacks,
        signal: AbortSignal,
      ): Promise<LlmResponse> {
        const chunking: StreamCallbacks = {
          ...callbacks,
          onContent: (fragment) => {
            for (const part of fragment.split(CHUNK)) if (part !== '') callbacks.onContent(part);
          },
        };
        const response = await inner.complete(request, chunking, signal);
        return { ...response, content: response.content.split(CHUNK).join('') };
      },
    };
  }
}

export interface Gate {
  /** Resolves when the gated step was reached. */
  reached: Promise<void>;
  open(): void;
}

/** A function step that signals when the model call reaches it and answers `step` once opened. */
export function gatedStep(step: ScriptObjectStep | ((request: LlmRequest) => ScriptObjectStep)): {
  step: ScriptStep;
  gate: Gate;
} {
  let markReached!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    gate: { reached, open },
    step: async (request) => {
      markReached();
      await opened;
      return typeof step === 'function' ? step(request) : step;
    },
  };
}

/** A function step that records the model request it answers. */
export function recordingStep(seen: LlmRequest[], answer: ScriptObjectStep): ScriptStep {
  return (request) => {
    seen.push(structuredClone(request));
    return answer;
  };
}

export interface LiveAppServerOptions {
  steps?: ScriptStep[];
  tools?: Array<BuiltinToolName | ToolDefinition>;
  approvalPolicy?: ApprovalPolicy;
  approvalTimeoutMs?: number;
  runConfig?: RunConfig;
  host?: AppServerHost;
  /** Reuse a store file (restart tests); default a fresh temp file. */
  storePath?: string;
  /** Replaces the runner over the scripted model. */
  runner?: Runner;
}

export class LiveAppServer {
  private constructor(
    readonly server: InProcessAppServer,
    readonly provider: ScriptedModelProvider,
    readonly root: string,
    readonly workspace: string,
    readonly storePath: string,
    private readonly ownsRoot: boolean,
  ) {}

  static async start(options: LiveAppServerOptions = {}, root?: string): Promise<LiveAppServer> {
    const dir = root ?? mkdtempSync(join(tmpdir(), 'vv-live-'));
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    const storePath = options.storePath ?? join(dir, 'app-server.sqlite');
    const provider = new ScriptedModelProvider({ steps: options.steps ?? [] });
    const agent = Agent.create({
      name: 'assistant',
      instructions: 'You are a test assistant.',
      tools: options.tools ?? ['bash', 'write_file'],
      maxCycles: 10,
    });
    const server = await startInProcessAppServer(
      {
        runner:
          options.runner ?? new Runner({ modelProvider: new ChunkingModelProvider(provider), workspace }),
        agent,
        runConfig: options.runConfig,
        host: options.host,
        store: { path: storePath },
        approvalPolicy: options.approvalPolicy,
        approvalTimeoutMs: options.approvalTimeoutMs,
      },
      new SilentLogger(),
    );
    return new LiveAppServer(server, provider, dir, workspace, storePath, root === undefined);
  }

  /** A new initialized connection. */
  async connect(capabilities?: Record<string, unknown>): Promise<WireClient> {
    const client = new WireClient(this.server);
    await client.call('initialize', {
      clientInfo: { name: 'spec' },
      ...(capabilities === undefined ? {} : { capabilities }),
    });
    return client;
  }

  /** A thread whose cwd is the temp workspace. */
  async startThread(client: WireClient, params: Record<string, unknown> = {}): Promise<string> {
    const result = await client.call<{ threadId: string }>('thread/start', {
      cwd: this.workspace,
      ...params,
    });
    return result.threadId;
  }

  /** Shuts the server down (§1.9) and closes the app; keeps the temp dir when `keepFiles`. */
  async close(keepFiles = false): Promise<void> {
    await this.server.close();
    if (!keepFiles && this.ownsRoot) rmSync(this.root, { recursive: true, force: true });
  }

  removeFiles(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function text(value: string): Record<string, unknown>[] {
  return [{ type: 'text', text: value }];
}

/** Starts a turn and waits for its `turn/completed`; returns the turn id and where its traffic starts. */
export async function runTurn(
  client: WireClient,
  threadId: string,
  input: Record<string, unknown>[],
  /** How long the turn may take; long streamed turns on a loaded 2-core machine need more than the default. */
  timeoutMs?: number,
): Promise<{ turnId: string; from: number; completed: WireMessage }> {
  const from = client.messages.length;
  const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input });
  const completed = await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, {
    from,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  return { turnId, from, completed };
}
