/**
 * Embedding the App Server in a Nest application (docs/spec/protocol.md §10, §7.3, §9.5, §13) through the
 * package entry `dist/index.js`: a product module importing `AppServerModule.forRoot` with its own
 * `AppServerHost`, and `startInProcessAppServer` driven by in-process connections. The runner talks
 * to a real HTTP model server on 127.0.0.1; stores are real sqlite files. Build first (`npm run build`).
 */
import 'reflect-metadata';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  Agent,
  AppServerCore,
  AppServerModule,
  FixedModelProvider,
  InProcessServer,
  Runner,
  createOpenAiCompatibleClient,
  parseLlmSettingsDocument,
  resolveModelEndpoint,
  startInProcessAppServer,
  type AppServerHost,
  type HostTurnRequest,
  type InProcessAppServer,
} from '../../dist';
import { FakeOpenAiServer, fakeSettingsDocument } from '../helpers/fake-openai-server';
import { InProcessConnection, type JsonMessage } from '../helpers/in-process-connection';
import { bashReply, finishReply, gate } from '../helpers/model-replies';

jest.setTimeout(40_000);

const BACKEND = 'local';
const MODEL = 'test-model';

let root: string;
let model: FakeOpenAiServer;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vv-embedding-e2e-'));
  model = await FakeOpenAiServer.start();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await model.close();
  rmSync(root, { recursive: true, force: true });
});

/** A runner whose model is the fake HTTP server, through the package's OpenAI-compatible client. */
function httpRunner(): { runner: Runner; agentFor: (name: string) => Agent } {
  const settings = parseLlmSettingsDocument(
    fakeSettingsDocument({
      endpoints: [{ id: 'fake', apiBase: model.baseUrl }],
      backend: BACKEND,
      model: MODEL,
    }),
  );
  const resolved = resolveModelEndpoint(settings, BACKEND, MODEL);
  const client = createOpenAiCompatibleClient(settings, resolved, { timeoutSeconds: 30 });
  const runner = new Runner({ modelProvider: new FixedModelProvider(resolved, client) });
  const agentFor = (name: string) =>
    Agent.create({
      name,
      instructions: 'You are an embedded test agent.',
      model: { type: 'resolved', config: resolved },
      tools: ['bash'],
      maxCycles: 5,
    });
  return { runner, agentFor };
}

const params = (m: JsonMessage) => (m.params ?? {}) as Record<string, unknown>;
const textInput = (text: string) => [{ type: 'text', text }];

describe('a product Nest module importing AppServerModule.forRoot with its own host', () => {
  it('answers turn/start with -32603 and the host error; no turn exists and nothing is emitted', async () => {
    const { runner, agentFor } = httpRunner();
    const seen: HostTurnRequest[] = [];
    class ProductHost implements AppServerHost {
      async resolveAgent(request: HostTurnRequest): Promise<Agent> {
        seen.push(request);
        if (request.metadata.mode === 'reject-config') return agentFor('product');
        throw new Error('agent resolution failed: tenant suspended');
      }
      async buildRunConfig(): Promise<never> {
        throw 'run config unavailable';
      }
      async listModels() {
        return { models: [{ id: 'product-model', supportsTools: true }] };
      }
    }

    @Module({
      imports: [
        AppServerModule.forRoot({
          runner,
          host: new ProductHost(),
          store: { path: join(root, 'product.sqlite') },
        }),
      ],
    })
    class ProductModule {}

    const strategy = new InProcessServer();
    const app = await NestFactory.createMicroservice(ProductModule, {
      strategy,
      logger: false,
      abortOnError: false,
    });
    const core = app.get(AppServerCore);
    strategy.attach(core);
    await app.listen();
    cleanups.push(async () => {
      await core.shutdown('signal');
      await app.close();
    });

    const client = new InProcessConnection(core);
    expect(await client.initialize()).toMatchObject({ capabilities: { threadLifecycle: true } });
    expect(await client.call('model/list')).toEqual({
      models: [{ id: 'product-model', supportsTools: true }],
    });

    const { threadId } = await client.call<{ threadId: string }>('thread/start', {
      agentKey: 'support',
      metadata: { tier: 'gold', shared: 'thread' },
    });
    await client.drain();
    const failed = await client.request('turn/start', {
      threadId,
      input: textInput('hello'),
      metadata: { shared: 'turn', thread_id: 'spoofed' },
    });
    expect(failed).toEqual({
      jsonrpc: '2.0',
      id: failed.id,
      error: { code: -32603, message: 'agent resolution failed: tenant suspended' },
    });
    // The host saw the thread as stored, its metadata overlaid by the turn's (turn wins, §10.1).
    expect(seen).toEqual([
      {
        threadId,
        agentKey: 'support',
        cwd: null,
        metadata: { tier: 'gold', shared: 'turn', thread_id: 'spoofed' },
      },
    ]);
    expect(await client.drain()).toEqual([]);
    const read = await client.call<Record<string, unknown>>('thread/read', { threadId });
    expect(read).toMatchObject({ thread: { threadId, status: 'idle' }, turns: [], items: [] });

    // A non-Error rejection from buildRunConfig surfaces as its string.
    const second = await client.call<{ threadId: string }>('thread/start', {
      metadata: { mode: 'reject-config' },
    });
    await client.drain();
    const rejected = await client.request('turn/start', { threadId: second.threadId, input: textInput('x') });
    expect(rejected).toMatchObject({ error: { code: -32603, message: 'run config unavailable' } });
    expect(await client.drain()).toEqual([]);
    expect(
      (await client.call<{ turns: unknown[] }>('thread/read', { threadId: second.threadId })).turns,
    ).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(client.transcriptProblems()).toEqual([]);
  });
});

describe('startInProcessAppServer without a runner', () => {
  it('reports threadLifecycle false and answers runtime methods with -32603 (§3.0, §10.4)', async () => {
    const server = await startInProcessAppServer({ store: { path: join(root, 'no-runtime.sqlite') } });
    cleanups.push(() => server.close());
    const client = new InProcessConnection(server.core);
    expect(await client.initialize()).toEqual({
      userAgent: 'vv-agent-app-server',
      protocolVersion: 'v1',
      capabilities: {
        modelList: true,
        threadLifecycle: false,
        notificationOptOut: true,
        schemaExport: true,
        approvalResolve: true,
      },
    });
    const notConfigured = { code: -32603, message: 'App Server runtime is not configured' };
    const threadId = 'thread_00000000000000000000000000000000';
    const calls: Array<[string, unknown]> = [
      ['thread/start', undefined],
      ['thread/list', {}],
      ['thread/read', { threadId }],
      ['thread/resume', { threadId }],
      ['thread/archive', { threadId }],
      ['thread/unsubscribe', { threadId }],
      ['turn/start', { threadId, input: [] }],
      ['turn/steer', { threadId, input: [] }],
      ['turn/followUp', { threadId, input: [] }],
      ['turn/interrupt', { threadId }],
    ];
    for (const [method, methodParams] of calls) {
      expect((await client.request(method, methodParams)).error).toEqual(notConfigured);
    }
    // Validation still comes first; approval/resolve does not need a runtime.
    expect((await client.request('thread/read', {})).error).toMatchObject({ code: -32602 });
    expect(
      (
        await client.request('approval/resolve', {
          threadId,
          turnId: 'turn_00000000000000000000000000000000',
          requestId: 'approval_00000000000000000000000000000000',
          decision: 'allow',
        })
      ).error,
    ).toEqual({ code: -32602, message: 'Unknown approval request' });
    expect(await client.call('model/list')).toEqual({ models: [] });
    expect(client.transcriptProblems()).toEqual([]);
  });
});

describe('startInProcessAppServer with a working host', () => {
  it('sends approval/request to the owner only; after the owner disconnects it stays pending until its timeout (docs/spec/websocket.md §6) and the turn completes', async () => {
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const { runner, agentFor } = httpRunner();
    const host: AppServerHost = {
      resolveAgent: async (request) => agentFor(request.agentKey || 'assistant'),
      buildRunConfig: async () => ({ workspace, maxCycles: 5 }),
      listModels: async () => ({ models: [] }),
    };
    model.enqueue(
      bashReply('touch embedded.txt', { content: ['Let me check.'], callId: 'call_embedded' }),
      finishReply('Finished without the command.', { content: ['Finished without the command.'] }),
    );
    const server: InProcessAppServer = await startInProcessAppServer({
      runner,
      host,
      store: { path: join(root, 'embedded.sqlite') },
      // An owner that goes away leaves its approval pending: the timer is what resolves it here.
      approvalTimeoutMs: 1_000,
    });
    cleanups.push(() => server.close());

    const owner = new InProcessConnection(server.core);
    const observer = new InProcessConnection(server.core);
    await owner.initialize();
    await observer.initialize();
    const { threadId } = await owner.call<{ threadId: string }>('thread/start', { agentKey: 'embedded' });
    const resumed = await observer.call<Record<string, unknown>>('thread/resume', { threadId });
    expect(resumed).toMatchObject({ thread: { threadId, status: 'idle' }, turns: [], items: [] });

    const { turnId } = await owner.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('go'),
    });
    const request = await owner.waitFor((m) => m.method === 'approval/request' && 'id' in m);
    expect(params(request)).toMatchObject({
      threadId,
      turnId,
      toolName: 'bash',
      preview: 'Run touch embedded.txt',
    });
    const requested = await observer.waitFor((m) => m.method === 'approval/requested');
    expect(params(requested)).toEqual(params(request));

    // approval/resolve only matches requests sent to the requesting connection (§3.13).
    const foreign = await observer.request('approval/resolve', {
      threadId,
      turnId,
      requestId: request.id,
      decision: 'allow',
    });
    expect(foreign).toMatchObject({ error: { code: -32602, message: 'Unknown approval request' } });
    expect(foreign.error).not.toHaveProperty('data');

    owner.disconnect();
    const rest = await observer.collectUntil((m) => m.method === 'turn/completed');
    const resolved = [...observer.received].filter((m) => m.method === 'approval/resolved');
    expect(resolved.map(params)).toEqual([
      { threadId, turnId, requestId: request.id, decision: 'timeout', reason: 'approval request timed out' },
    ]);
    const refused = rest.find(
      (m) =>
        m.method === 'item/completed' &&
        params(m).type === 'toolCall' &&
        (params(m).payload as Record<string, unknown>).toolCallId === 'call_embedded',
    );
    expect(refused && params(refused)).toMatchObject({
      status: 'failed',
      payload: { errorCode: 'tool_approval_timeout', executionStarted: false },
    });
    expect(params(rest[rest.length - 1])).toMatchObject({
      threadId,
      turnId,
      status: 'completed',
      finalOutput: 'Finished without the command.',
    });
    expect(existsSync(join(workspace, 'embedded.txt'))).toBe(false);

    // Ownership never moves: the observer never saw the server request.
    expect(observer.received.some((m) => m.method === 'approval/request')).toBe(false);
    // Traffic order seen by the observer (§7.5 approval ordering).
    const methods = observer.received.map((m) =>
      typeof m.method === 'string' && m.method.startsWith('item/')
        ? `${m.method}(${String(params(m).type)})`
        : m.method,
    );
    const order = [
      'item/started(approval)',
      'approval/requested',
      'approval/resolved',
      'item/completed(approval)',
      'turn/completed',
    ].map((name) => methods.indexOf(name));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Cycle 2 ran after the refusal: the turn continued (§9.5).
    expect(model.requests).toHaveLength(2);

    // An owner that is gone before its turn asks: the server request is held, never sent to
    // observers, and the timer still resolves it (docs/spec/websocket.md §6.4).
    const hold = gate();
    model.enqueue(
      bashReply('touch orphan.txt', { callId: 'call_orphan', gate: hold.promise }),
      finishReply('Orphan turn done.'),
    );
    const shortLived = new InProcessConnection(server.core);
    await shortLived.initialize();
    const orphan = await shortLived.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('again'),
    });
    await observer.waitFor((m) => m.method === 'turn/started' && params(m).turnId === orphan.turnId);
    shortLived.disconnect();
    hold.open();
    const orphanTraffic = await observer.collectUntil((m) => m.method === 'turn/completed');
    const orphanResolved = orphanTraffic.filter((m) => m.method === 'approval/resolved').map(params);
    expect(orphanResolved).toEqual([
      {
        threadId,
        turnId: orphan.turnId,
        requestId: expect.stringMatching(/^approval_[0-9a-f]{32}$/),
        decision: 'timeout',
        reason: 'approval request timed out',
      },
    ]);
    expect(params(orphanTraffic[orphanTraffic.length - 1])).toMatchObject({
      turnId: orphan.turnId,
      status: 'completed',
      finalOutput: 'Orphan turn done.',
    });
    expect(shortLived.received.some((m) => m.method === 'approval/request')).toBe(false);
    expect(existsSync(join(workspace, 'orphan.txt'))).toBe(false);
    expect([
      ...owner.transcriptProblems(),
      ...observer.transcriptProblems(),
      ...shortLived.transcriptProblems(),
    ]).toEqual([]);
  });

  it('closes a thread only when its last subscriber leaves; archive reaches the requester and subscribers (§3.7, §3.8)', async () => {
    const { runner, agentFor } = httpRunner();
    const server = await startInProcessAppServer({
      runner,
      host: {
        resolveAgent: async () => agentFor('assistant'),
        buildRunConfig: async () => ({}),
        listModels: async () => ({ models: [] }),
      },
      store: { path: join(root, 'subscriptions.sqlite') },
    });
    cleanups.push(() => server.close());
    const a = new InProcessConnection(server.core);
    const b = new InProcessConnection(server.core);
    await a.initialize();
    await b.initialize();
    const { threadId } = await a.call<{ threadId: string }>('thread/start');
    await b.call('thread/resume', { threadId });
    // thread/started went to the requester only (§7.1).
    expect(b.received.some((m) => m.method === 'thread/started')).toBe(false);

    expect(await a.call('thread/unsubscribe', { threadId })).toEqual({
      threadId,
      subscribed: false,
      closed: false,
    });
    expect((await a.drain()).map((m) => m.method)).toEqual(['thread/started']);
    expect(await b.call('thread/unsubscribe', { threadId })).toEqual({
      threadId,
      subscribed: false,
      closed: true,
    });
    expect((await b.drain()).map((m) => [m.method, params(m).status])).toEqual([
      ['thread/closed', undefined],
      ['thread/status/changed', 'closed'],
    ]);
    expect(await a.drain()).toEqual([]);

    // b subscribes again; a (not subscribed) archives: both get archived + status(archived), once each.
    await b.call('thread/resume', { threadId });
    await a.call('thread/archive', { threadId });
    const expected = [
      ['thread/archived', undefined],
      ['thread/status/changed', 'archived'],
    ];
    expect((await a.drain()).map((m) => [m.method, params(m).status])).toEqual(expected);
    expect((await b.drain()).map((m) => [m.method, params(m).status])).toEqual(expected);
    expect([...a.transcriptProblems(), ...b.transcriptProblems()]).toEqual([]);
  });
});
