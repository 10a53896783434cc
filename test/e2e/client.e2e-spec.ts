/**
 * `AppServerClient` (docs/spec/protocol.md §13) against the real stdio server (`dist/main.js`, fake HTTP model),
 * against an in-process server, and against small fake children that misbehave on purpose (silent,
 * exiting, malformed output, wrong result shapes). Build first (`npm run build`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppServerClient, AppServerClientError, type ServerMessage } from '../../src/client';
import { DefaultAppServerHost } from '../../src/core/host/default-app-server-host';
import { startInProcessAppServer, type InProcessAppServer } from '../../src/nest/in-process-app-server';
import {
  COMMITTED_SCHEMA_DIR,
  readSchemaDirectory,
} from '../../src/protocols/app-server-v1/schema/committed-schema-files';
import { Agent } from '../../src/runtime/agent';
import { finish, ScriptedModelProvider, type ScriptStep } from '../../src/runtime/model/scripted-model';
import { Runner } from '../../src/runtime/runner';
import { E2eSandbox, MODEL } from '../helpers/app-server-session';
import { bashReply, finishReply, hangingTextReply } from '../helpers/model-replies';
import { assertValidServerMessage } from '../helpers/schema-validation';

jest.setTimeout(30_000);

const INITIALIZE_RESULT = {
  userAgent: 'vv-agent-app-server',
  protocolVersion: 'v1',
  capabilities: {
    modelList: true,
    threadLifecycle: true,
    notificationOptOut: true,
    schemaExport: true,
    approvalResolve: true,
    // docs/spec/sandbox.md §4: bwrap works on the test machine; the default mode.
    sandbox: { available: true, maxMode: 'workspace-write' },
  },
};

/** §12.6's order for a one-step `finish` turn, after `thread/start`. */
const FINISH_TURN_METHODS = [
  'thread/started',
  'thread/status/changed',
  'turn/started',
  'item/completed',
  'item/started',
  'item/agentMessage/delta',
  'item/completed',
  'item/started',
  'item/toolCall/delta',
  'item/completed',
  'thread/status/changed',
  'turn/completed',
];

const clients: AppServerClient[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track(client: AppServerClient): AppServerClient {
  clients.push(client);
  return client;
}

/** Reads messages until `turn/completed` (inclusive); every message must match the committed schemas. */
async function readTurn(client: AppServerClient): Promise<ServerMessage[]> {
  const seen: ServerMessage[] = [];
  for (;;) {
    const message = await client.tryNextMessage({ timeoutMs: 10_000 });
    assertValidServerMessage(message);
    seen.push(message);
    if (message.method === 'turn/completed') return seen;
  }
}

function methodsOf(messages: ServerMessage[]): Array<string | undefined> {
  return messages.map((m) => m.method);
}

async function rejection(promise: Promise<unknown>): Promise<AppServerClientError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppServerClientError);
  return error as AppServerClientError;
}

describe('over the real stdio server', () => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-client-e2e-');
    cleanups.push(() => sandbox.dispose());
  });

  function spawnServer(stderr: string[] = []): AppServerClient {
    const server = sandbox.serverCommand({ store: ':memory:' });
    return track(
      AppServerClient.spawn({
        command: process.execPath,
        ...server,
        onStderr: (line) => stderr.push(line),
      }),
    );
  }

  it('initializes; typed helpers return validated results; server errors throw with code, message, data', async () => {
    const client = spawnServer();
    expect(await client.initialize({ name: 'client-e2e', version: '1.0.0' })).toEqual(INITIALIZE_RESULT);
    const models = await client.listModels();
    expect(models.models).toHaveLength(1);
    expect(models.models[0].metadata).toEqual({ requestedModel: MODEL });
    expect(await client.exportSchema()).toEqual(readSchemaDirectory(COMMITTED_SCHEMA_DIR));
    const thread = await client.startThread({ cwd: sandbox.workspace, metadata: { title: 't' } });
    expect(thread).toEqual({
      threadId: thread.threadId,
      agentKey: 'default',
      cwd: sandbox.workspace,
      status: 'idle',
    });
    const read = await client.readThread({ threadId: thread.threadId });
    expect(read.thread.metadata).toEqual({ title: 't' });
    expect((await client.listThreads()).threads.map((t) => t.threadId)).toEqual([thread.threadId]);
    const error = await rejection(client.readThread({ threadId: 'thread_unknown' }));
    expect({ message: error.message, code: error.code }).toEqual({
      message: 'Thread not found',
      code: -32020,
    });
    const invalid = await rejection(client.request('thread/read', {} as never));
    expect(invalid.code).toBe(-32602);
    expect(invalid.data).toEqual({ errors: [{ path: '/threadId', message: 'is required' }] });
  });

  it('keeps turn notifications in the backlog, in order, while a later call (model/list) waits', async () => {
    sandbox.model.enqueue(finishReply('all done', { content: ['all done'] }));
    const client = spawnServer();
    await client.initialize({ name: 'client-e2e' });
    const { threadId } = await client.startThread({ cwd: sandbox.workspace });
    const turn = await client.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
    expect(turn.status).toBe('running');
    await client.listModels();
    const traffic = await readTurn(client);
    expect(methodsOf(traffic)).toEqual(FINISH_TURN_METHODS);
    expect(traffic.every((m) => m.method !== undefined)).toBe(true);
    expect(await client.nextMessage({ timeoutMs: 200 })).toBeNull();
  });

  it('interruptTurn({clearFollowUps: true}) returns the validated clearedFollowUps count (docs/spec/protocol.md §3.12 v1.2)', async () => {
    sandbox.model.enqueue(hangingTextReply(['working']));
    const client = spawnServer();
    await client.initialize({ name: 'client-e2e' });
    const { threadId } = await client.startThread({ cwd: sandbox.workspace });
    const { turnId } = await client.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
    await sandbox.model.waitForRequests(1);
    await client.followUpTurn({ threadId, input: [{ type: 'text', text: 'later' }] });
    const interrupted = await client.interruptTurn({ threadId, clearFollowUps: true });
    expect(interrupted).toEqual({ threadId, turnId, cancelled: true, clearedFollowUps: 1 });
    await readTurn(client);
  });

  it('answers approval/request with the handler (never in the backlog); a throwing handler answers an error', async () => {
    sandbox.model.enqueue(
      bashReply('echo should-not-run'),
      finishReply('denied'),
      bashReply('echo should-not-run-either'),
      finishReply('gave up'),
    );
    const client = spawnServer();
    const asked: string[] = [];
    client.onApprovalRequest((params) => {
      asked.push(params.preview);
      return { decision: 'deny', reason: 'not today' };
    });
    await client.initialize({ name: 'client-e2e' });
    const { threadId } = await client.startThread({ cwd: sandbox.workspace });
    await client.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
    const first = await readTurn(client);
    expect(asked).toEqual(['Run echo should-not-run']);
    expect(first.some((m) => m.method === 'approval/request')).toBe(false);
    const denied = first.find((m) => m.method === 'approval/resolved');
    expect(denied?.method === 'approval/resolved' && denied.params).toMatchObject({
      decision: 'deny',
      reason: 'not today',
    });

    // The server resolves an error answer as `timeout` with the error's message (§9.4).
    client.onApprovalRequest(() => {
      throw new Error('dialog crashed');
    });
    await client.startTurn({ threadId, input: [{ type: 'text', text: 'again' }] });
    const second = await readTurn(client);
    const failed = second.find((m) => m.method === 'approval/resolved');
    expect(failed?.method === 'approval/resolved' && failed.params).toMatchObject({
      decision: 'timeout',
      reason: 'dialog crashed',
    });
  });

  it('puts approval/request in the backlog without a handler; resolveApproval answers it', async () => {
    sandbox.model.enqueue(bashReply('echo should-not-run'), finishReply('ok'));
    const client = spawnServer();
    await client.initialize({ name: 'client-e2e' });
    const { threadId } = await client.startThread({ cwd: sandbox.workspace });
    const { turnId } = await client.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
    const request = await client.waitFor((m) => m.method === 'approval/request', { timeoutMs: 10_000 });
    if (request.method !== 'approval/request') throw new Error('unreachable');
    expect(request.id).toBe(request.params.requestId);
    expect(
      await client.resolveApproval({
        threadId,
        turnId,
        requestId: request.params.requestId,
        decision: 'deny',
      }),
    ).toEqual({});
    const traffic = await readTurn(client);
    // Earlier non-matching messages stayed in the backlog, in order, ahead of the later ones.
    expect(traffic[0].method).toBe('thread/started');
    expect(traffic.find((m) => m.method === 'approval/resolved')?.method).toBe('approval/resolved');
  });
});

describe('in-process', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vv-client-inproc-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  });

  async function startServer(steps: ScriptStep[]): Promise<InProcessAppServer> {
    const workspace = join(root, 'ws');
    mkdirSync(workspace, { recursive: true });
    const modelProvider = new ScriptedModelProvider({ steps });
    const agent = Agent.create({
      name: 'assistant',
      instructions: 'Answer the user, then finish.',
      model: { type: 'named', model: modelProvider.defaultModel },
      tools: ['bash'],
      maxCycles: 5,
    });
    const server = await startInProcessAppServer({
      runner: new Runner({ modelProvider }),
      host: new DefaultAppServerHost({ agent, runConfig: { maxCycles: 5 }, defaultWorkspace: workspace }),
      store: { path: ':memory:' },
    });
    cleanups.push(() => server.close());
    return server;
  }

  it('runs a turn; waitFor leaves earlier non-matching messages in the backlog, in order', async () => {
    const server = await startServer([finish('hello')]);
    const client = track(AppServerClient.inProcess(server));
    await client.initialize({ name: 'in-process' });
    const { threadId } = await client.startThread();
    await client.startTurn({ threadId, input: [{ type: 'text', text: 'hi' }] });
    const completed = await client.waitFor((m) => m.method === 'turn/completed', { timeoutMs: 10_000 });
    expect(completed.method === 'turn/completed' && completed.params.finalOutput).toBe('hello');
    const rest: ServerMessage[] = [];
    for (
      let m = await client.nextMessage({ timeoutMs: 100 });
      m !== null;
      m = await client.nextMessage({ timeoutMs: 100 })
    ) {
      rest.push(m);
    }
    expect(methodsOf(rest)).toEqual(FINISH_TURN_METHODS.slice(0, -1));
  });

  it('accepts the core as well as the started server, one connection per client', async () => {
    const server = await startServer([]);
    const first = track(AppServerClient.inProcess(server.core));
    const second = track(AppServerClient.inProcess(server));
    await first.initialize({ name: 'first' });
    const error = await rejection(second.listModels());
    expect({ code: error.code, message: error.message }).toEqual({
      code: -32010,
      message: 'Not initialized',
    });
  });

  it('close(): true once, then false; afterwards calls fail with "App Server client is closed"', async () => {
    const server = await startServer([]);
    const client = AppServerClient.inProcess(server);
    await client.initialize({ name: 'closing' });
    await client.startThread();
    expect(await client.close()).toBe(true);
    expect(await client.close()).toBe(false);
    expect((await rejection(client.listModels())).message).toBe('App Server client is closed');
    expect(await client.nextMessage({ timeoutMs: 50 })).toBeNull();
    expect((await rejection(client.tryNextMessage({ timeoutMs: 50 }))).message).toBe(
      'App Server client is closed',
    );
    expect((await rejection(client.waitFor(() => true))).message).toBe('App Server client is closed');
    expect(() => client.answerApproval('approval_x', { decision: 'allow' })).toThrow(
      'App Server client is closed',
    );
  });

  it('close() rejects calls still pending with "App Server client is closed"', async () => {
    const server = await startServer([]);
    const client = AppServerClient.inProcess(server);
    const pending = client.initialize({ name: 'closing' });
    await client.close();
    expect((await rejection(pending)).message).toBe('App Server client is closed');
  });

  it('close() disconnects: the owner’s pending approval stays pending and moves to the client that resumes (docs/spec/websocket.md §6)', async () => {
    const server = await startServer([
      { tool_calls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo no' } }] },
      finish('done'),
    ]);
    const owner = track(AppServerClient.inProcess(server));
    const observer = track(AppServerClient.inProcess(server));
    await owner.initialize({ name: 'owner' });
    await observer.initialize({ name: 'observer' });
    const { threadId } = await owner.startThread();
    await observer.resumeThread({ threadId });
    await owner.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
    const request = await owner.waitFor((m) => m.method === 'approval/request', { timeoutMs: 10_000 });
    expect(await owner.close()).toBe(true);
    await observer.resumeThread({ threadId });
    const reasked = await observer.waitFor((m) => m.method === 'approval/request', { timeoutMs: 10_000 });
    expect(reasked).toEqual(request);
    const requestId = reasked.method === 'approval/request' ? reasked.params.requestId : '';
    observer.answerApproval(requestId, { decision: 'deny', reason: 'no' });
    const resolved = await observer.waitFor((m) => m.method === 'approval/resolved', { timeoutMs: 10_000 });
    expect(resolved.method === 'approval/resolved' && resolved.params).toMatchObject({
      requestId,
      decision: 'deny',
      reason: 'no',
    });
  });

  it('connection loss (server shutdown): pending calls reject, nextMessage drains the backlog then returns null', async () => {
    const server = await startServer([]);
    const client = track(AppServerClient.inProcess(server));
    await client.initialize({ name: 'lost' });
    await client.startThread();
    await server.close();
    expect((await client.nextMessage({ timeoutMs: 1_000 }))?.method).toBe('thread/started');
    expect(await client.nextMessage({ timeoutMs: 1_000 })).toBeNull();
    expect((await rejection(client.listModels())).message).toBe('App Server connection closed');

    // A client made after the shutdown fails at once, not after its request timeout (30 s).
    const late = track(AppServerClient.inProcess(server));
    const began = Date.now();
    expect((await rejection(late.initialize({ name: 'late' }))).message).toBe('App Server connection closed');
    expect(Date.now() - began).toBeLessThan(5_000);
  });
});

describe('against misbehaving children', () => {
  const PRELUDE = [
    "const rl = require('readline').createInterface({ input: process.stdin });",
    "const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');",
  ].join('\n');

  function fakeChild(script: string, options: { requestTimeoutMs?: number; stderr?: string[] } = {}) {
    return track(
      AppServerClient.spawn({
        command: process.execPath,
        args: ['-e', `${PRELUDE}\n${script}`],
        requestTimeoutMs: options.requestTimeoutMs,
        onStderr: options.stderr ? (line) => options.stderr?.push(line) : undefined,
      }),
    );
  }

  it('numbers requests from 1, sends initialize capabilities then initialized, passes stderr lines on', async () => {
    const stderr: string[] = [];
    const client = fakeChild(
      `rl.on('line', (line) => {
        process.stderr.write('got ' + line + '\\n');
        const m = JSON.parse(line);
        if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: ${JSON.stringify(INITIALIZE_RESULT)} });
        else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: { models: [] } });
      });`,
      { stderr },
    );
    await client.initialize({ name: 'ids', version: undefined });
    await client.listModels({ agentKey: undefined, provider: 'p' });
    await client.listModels();
    await client.close();
    expect(stderr).toEqual([
      'got {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"ids"},"capabilities":{"experimentalApi":false,"optOutNotificationMethods":[]}}}',
      'got {"jsonrpc":"2.0","method":"initialized"}',
      'got {"jsonrpc":"2.0","id":2,"method":"model/list","params":{"provider":"p"}}',
      'got {"jsonrpc":"2.0","id":3,"method":"model/list"}',
    ]);
  });

  it('times out a request: "timed out waiting for App Server <method> response", no code; a late response goes to the backlog', async () => {
    const client = fakeChild(
      `rl.on('line', (line) => { const m = JSON.parse(line); setTimeout(() => send({ jsonrpc: '2.0', id: m.id, result: { models: [] } }), 400); });`,
      { requestTimeoutMs: 100 },
    );
    const error = await rejection(client.listModels());
    expect(error.message).toBe('timed out waiting for App Server model/list response');
    expect(error.code).toBeUndefined();
    expect(await client.nextMessage({ timeoutMs: 10_000 })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { models: [] },
    });
    const perCall = await rejection(client.request('model/list', undefined, { timeoutMs: 50 }));
    expect(perCall.message).toBe('timed out waiting for App Server model/list response');
  });

  it('nextMessage returns null and tryNextMessage / waitFor throw when nothing arrives in time', async () => {
    const client = fakeChild(`rl.on('line', () => {});`);
    expect(await client.nextMessage({ timeoutMs: 50 })).toBeNull();
    expect((await rejection(client.tryNextMessage({ timeoutMs: 50 }))).message).toBe(
      'timed out waiting for App Server message',
    );
    expect((await rejection(client.waitFor(() => true, { timeoutMs: 50 }))).message).toBe(
      'timed out waiting for App Server message',
    );
  });

  it('connection loss: the child exits; pending calls reject, the backlog drains, then null', async () => {
    const client = fakeChild(
      `send({ jsonrpc: '2.0', method: 'thread/closed', params: { threadId: 't' } });
       rl.on('line', () => process.exit(0));`,
    );
    const error = await rejection(client.listModels());
    expect(error.message).toBe('App Server connection closed');
    expect(await client.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'thread/closed',
      params: { threadId: 't' },
    });
    expect(await client.nextMessage()).toBeNull();
    expect((await rejection(client.tryNextMessage())).message).toBe('App Server connection closed');
    expect((await rejection(client.listModels())).message).toBe('App Server connection closed');
    expect(await client.close()).toBe(true);
  });

  it('a malformed line is fatal: "invalid App Server output: <first 200 chars>"', async () => {
    const garbage = `${'x'.repeat(250)} not json`;
    const client = fakeChild(
      `rl.on('line', () => process.stdout.write(${JSON.stringify(garbage)} + '\\n'));`,
    );
    const error = await rejection(client.listModels());
    expect(error.message).toBe(`invalid App Server output: ${garbage.slice(0, 200)}`);
    expect((await rejection(client.listModels())).message).toBe(error.message);
  });

  it('a result that does not match its schema: "failed decoding App Server <method> response: …"', async () => {
    const client = fakeChild(
      `rl.on('line', (line) => { const m = JSON.parse(line);
        send({ jsonrpc: '2.0', id: m.id, result: m.method === 'model/list' ? { models: 'none' } : { threadId: 't', agentKey: 'a', status: 'idle' } }); });`,
    );
    expect((await rejection(client.listModels())).message).toBe(
      'failed decoding App Server model/list response: result/models must be array',
    );
    expect((await rejection(client.startThread())).message).toBe(
      "failed decoding App Server thread/start response: result must have required property 'cwd'",
    );
  });

  it('close() ends stdin, waits up to 5 s for the exit, then SIGKILLs the child', async () => {
    const client = fakeChild(
      `rl.on('line', () => {}); rl.on('close', () => {}); setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    expect(await client.close()).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  });
});
