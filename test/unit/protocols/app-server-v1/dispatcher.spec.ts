import { JsonlFramer, type FramerEvent } from '../../../../src/transports/stdio/jsonl-framer';
import 'reflect-metadata';
import type { AppServerCore } from '../../../../src/protocols/app-server-v1/app-server-core';
import type { InitializeParamsDto } from '../../../../src/protocols/app-server-v1/dto';
import { DomainErrors } from '../../../../src/core/domain-error';
import { RpcErrors } from '../../../../src/protocols/app-server-v1/errors';
import { InitializeHandlers } from '../../../../src/protocols/app-server-v1/handlers/initialize.handlers';
import { Notifier } from '../../../../src/protocols/app-server-v1/notifier';
import type { RpcContext, RpcHandler } from '../../../../src/protocols/app-server-v1/rpc-context';
import { createCoreHarness, deferred, settle, type CoreHarness } from '../../support/in-process-core';

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { clientInfo: { name: 'test' } } };

function withInitialize(harness: CoreHarness, runtimeConfigured = true): CoreHarness {
  const controller = new InitializeHandlers({ runtimeConfigured } as AppServerCore);
  harness.handlers.set('initialize', (params, ctx) =>
    controller.initialize(params as InitializeParamsDto, ctx),
  );
  harness.handlers.set('initialized', (params, ctx) => controller.initialized(params, ctx));
  return harness;
}

async function initialized(harness: CoreHarness) {
  const client = harness.connect();
  client.send(INIT);
  await settle();
  client.sink.lines.length = 0;
  return client;
}

describe('Dispatcher: per-connection FIFO (§1.8)', () => {
  it('processes requests one at a time in arrival order; a handler completes before the next starts', async () => {
    const harness = withInitialize(createCoreHarness());
    const events: string[] = [];
    const gate = deferred();
    harness.handlers.set('model/list', async (_params, ctx) => {
      events.push(`start ${String(ctx.requestId)}`);
      if (ctx.requestId === 1) await gate.promise;
      events.push(`end ${String(ctx.requestId)}`);
      return { models: [], n: ctx.requestId };
    });
    const client = await initialized(harness);
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'model/list' });
    client.send({ id: 3, method: 'model/list' });
    await settle();
    expect(events).toEqual(['start 1']);
    gate.resolve();
    await settle();
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(client.sink.messages.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('runs afterResponse callbacks after the response and before the next request starts', async () => {
    const harness = withInitialize(createCoreHarness());
    const notifier = new Notifier(harness.registry);
    harness.handlers.set('thread/start', (_params, ctx: RpcContext) => {
      ctx.afterResponse(async () => {
        await notifier.notify([ctx.connectionId], 'thread/started', {
          threadId: `t${String(ctx.requestId)}`,
        });
      });
      ctx.afterResponse(() =>
        notifier.notify([ctx.connectionId], 'thread/status/changed', { status: 'idle' }),
      );
      return { threadId: `t${String(ctx.requestId)}` };
    });
    const client = await initialized(harness);
    client.send({ id: 1, method: 'thread/start' });
    client.send({ id: 2, method: 'thread/start' });
    await settle();
    expect(client.sink.messages.map((m) => m.method ?? `response ${String(m.id)}`)).toEqual([
      'response 1',
      'thread/started',
      'thread/status/changed',
      'response 2',
      'thread/started',
      'thread/status/changed',
    ]);
  });

  it('does not run afterResponse callbacks when the handler fails', async () => {
    const harness = withInitialize(createCoreHarness());
    const ran: string[] = [];
    harness.handlers.set('thread/start', (_params, ctx: RpcContext) => {
      ctx.afterResponse(() => void ran.push('callback'));
      throw DomainErrors.threadNotFound();
    });
    const client = await initialized(harness);
    client.send({ id: 1, method: 'thread/start' });
    await settle();
    expect(ran).toEqual([]);
    expect(client.sink.messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Thread not found' } },
    ]);
  });

  it('answers -32001 at once when 128 requests already wait, echoing the id; queued ones still run', async () => {
    const harness = withInitialize(createCoreHarness());
    const gate = deferred();
    harness.handlers.set('model/list', async (_params, ctx) => {
      if (ctx.requestId === 'first') await gate.promise;
      return { models: [] };
    });
    const client = await initialized(harness);
    client.send({ id: 'first', method: 'model/list' });
    for (let n = 1; n <= 128; n += 1) client.send({ id: n, method: 'model/list' });
    client.send({ id: 'over', method: 'model/list' });
    client.send({ jsonrpc: '2.0', method: 'initialized' });
    await settle();
    expect(client.sink.messages).toEqual([
      { jsonrpc: '2.0', id: 'over', error: { code: -32001, message: 'Server overloaded; retry later.' } },
    ]);
    gate.resolve();
    await settle(20);
    const ids = client.sink.messages.map((m) => m.id);
    expect(ids).toEqual(['over', 'first', ...Array.from({ length: 128 }, (_v, i) => i + 1)]);
  });

  it('honours maxQueuedRequests from the options', async () => {
    const harness = withInitialize(createCoreHarness({ maxQueuedRequests: 1 }));
    const gate = deferred();
    harness.handlers.set('model/list', () => gate.promise.then(() => ({ models: [] })));
    const client = await initialized(harness);
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'model/list' });
    client.send({ id: 3, method: 'model/list' });
    await settle();
    expect(client.sink.messages.map((m) => [m.id, (m.error as { code?: number } | undefined)?.code])).toEqual(
      [[3, -32001]],
    );
    gate.resolve();
    await settle();
    expect(client.sink.messages.map((m) => m.id)).toEqual([3, 1, 2]);
  });

  it('keeps connections independent', async () => {
    const harness = withInitialize(createCoreHarness());
    const gate = deferred();
    harness.handlers.set('model/list', async (_p, ctx) => {
      if (ctx.requestId === 'blocked') await gate.promise;
      return { models: [] };
    });
    const a = await initialized(harness);
    const b = await initialized(harness);
    a.send({ id: 'blocked', method: 'model/list' });
    b.send({ id: 'free', method: 'model/list' });
    await settle();
    expect(a.sink.messages).toEqual([]);
    expect(b.sink.messages.map((m) => m.id)).toEqual(['free']);
    gate.resolve();
  });
});

describe('Dispatcher: request checks (§1.5, §3.0, §3.1)', () => {
  it('gates every method but initialize before initialize (-32010, unknown methods too)', async () => {
    const harness = withInitialize(createCoreHarness());
    harness.handlers.set('model/list', () => ({ models: [] }));
    const client = harness.connect();
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'no/such' });
    client.send({ id: 3, method: 'initialized' });
    await settle();
    expect(client.sink.messages).toEqual(
      [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, error: { code: -32010, message: 'Not initialized' } })),
    );
  });

  it('returns the exact initialize result and then serves methods', async () => {
    const harness = withInitialize(createCoreHarness());
    harness.handlers.set('model/list', () => ({ models: [] }));
    const client = harness.connect();
    client.send({ ...INIT, id: 'init' });
    client.send({ id: 1, method: 'model/list' });
    await settle();
    expect(client.sink.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 'init',
        result: {
          userAgent: 'vv-agent-app-server',
          protocolVersion: 'v1',
          capabilities: {
            modelList: true,
            threadLifecycle: true,
            notificationOptOut: true,
            schemaExport: true,
            approvalResolve: true,
          },
        },
      },
      { jsonrpc: '2.0', id: 1, result: { models: [] } },
    ]);
    expect(client.connection.state).toMatchObject({
      initialized: true,
      readyForNotifications: true,
      clientInfo: { name: 'test' },
    });
  });

  it('reports threadLifecycle false without a runtime', async () => {
    const harness = withInitialize(createCoreHarness({ runtimeConfigured: false }), false);
    const client = harness.connect();
    client.send(INIT);
    await settle();
    expect(client.sink.messages[0]).toMatchObject({ result: { capabilities: { threadLifecycle: false } } });
  });

  it('answers -32011 to a second initialize before looking at its params', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = await initialized(harness);
    client.send({ id: 5, method: 'initialize' });
    client.send({ id: 6, method: 'initialize', params: { clientInfo: 5 } });
    client.send(INIT);
    await settle();
    expect(client.sink.messages).toEqual(
      [5, 6, 0].map((id) => ({
        jsonrpc: '2.0',
        id,
        error: { code: -32011, message: 'Already initialized' },
      })),
    );
  });

  it('leaves the connection uninitialized after a failed initialize; a later valid one succeeds', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = harness.connect();
    client.send({ id: 1, method: 'initialize' });
    client.send({ id: 2, method: 'initialize', params: { clientInfo: { name: ' ' } } });
    client.send({ id: 3, method: 'model/list' });
    client.send({ id: 4, method: 'initialize', params: { clientInfo: { name: 'ok' } } });
    await settle();
    const [missing, blank, gated, ok] = client.sink.messages;
    expect(missing).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Missing params' } });
    expect(blank).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32602,
        message: 'clientInfo.name is required',
        data: { errors: [{ path: '/clientInfo/name', message: 'must not be blank' }] },
      },
    });
    expect(gated).toMatchObject({ id: 3, error: { code: -32010 } });
    expect(ok).toMatchObject({ id: 4, result: { protocolVersion: 'v1' } });
  });

  it('stores clientInfo, experimentalApi and the opt-out set', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = harness.connect();
    client.send({
      id: 1,
      method: 'initialize',
      params: {
        clientInfo: { name: 'n', title: 't', version: '1' },
        capabilities: { experimentalApi: true, optOutNotificationMethods: ['item/agentMessage/delta', 'x'] },
      },
    });
    await settle();
    expect(client.connection.state).toEqual({
      initialized: true,
      readyForNotifications: true,
      clientInfo: { name: 'n', title: 't', version: '1' },
      experimentalApi: true,
      optOutNotificationMethods: new Set(['item/agentMessage/delta', 'x']),
    });
  });

  it('answers -32601 with data.method for unknown methods, `initialized` with an id, and unregistered registry methods', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = await initialized(harness);
    client.send({ id: 1, method: 'no/such' });
    client.send({ id: 2, method: 'initialized' });
    client.send({ id: 3, method: 'thread/start' });
    client.send({ id: 4, method: 'Model/List' });
    await settle();
    expect(client.sink.messages).toEqual(
      [
        [1, 'no/such'],
        [2, 'initialized'],
        [3, 'thread/start'],
        [4, 'Model/List'],
      ].map(([id, method]) => ({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: `Method not found: ${String(method)}`, data: { method } },
      })),
    );
  });

  it('validates params before the runtime check, and checks the runtime before the handler', async () => {
    const harness = withInitialize(createCoreHarness({ runtimeConfigured: false }), false);
    const called: string[] = [];
    harness.handlers.set('thread/read', () => called.push('thread/read'));
    harness.handlers.set('thread/start', () => called.push('thread/start'));
    harness.handlers.set('model/list', () => ({ models: [] }));
    const client = await initialized(harness);
    client.send({ id: 1, method: 'thread/read' });
    client.send({ id: 2, method: 'thread/read', params: { threadId: 't' } });
    client.send({ id: 3, method: 'thread/start', params: { cwd: 1 } });
    client.send({ id: 4, method: 'thread/start' });
    client.send({ id: 5, method: 'model/list' });
    await settle();
    expect(client.sink.messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Missing params' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'App Server runtime is not configured' } },
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message: 'Invalid params: /cwd must be a string or null',
          data: { errors: [{ path: '/cwd', message: 'must be a string or null' }] },
        },
      },
      { jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'App Server runtime is not configured' } },
      { jsonrpc: '2.0', id: 5, result: { models: [] } },
    ]);
    expect(called).toEqual([]);
  });

  it('passes the validated DTO instance and the context to the handler', async () => {
    const harness = withInitialize(createCoreHarness());
    let received: { params: object; connectionId: string; method: string } | undefined;
    harness.handlers.set('thread/read', (params, ctx) => {
      received = { params, connectionId: ctx.connectionId, method: ctx.method };
      return {};
    });
    const client = await initialized(harness);
    client.send({ id: 1, method: 'thread/read', params: { threadId: 't', limit: 2, unknown: true } });
    await settle();
    expect(received?.params.constructor.name).toBe('ThreadReadParamsDto');
    expect(received?.params).toMatchObject({ threadId: 't', limit: 2 });
    expect(received?.connectionId).toBe(client.connection.id);
    expect(received?.method).toBe('thread/read');
  });
});

describe('Dispatcher: handler outcomes', () => {
  async function answerOf(handler: RpcHandler): Promise<unknown> {
    const harness = withInitialize(createCoreHarness());
    harness.handlers.set('model/list', handler);
    const client = await initialized(harness);
    client.send({ id: 'x', method: 'model/list' });
    await settle();
    return client.sink.messages[0];
  }

  it.each<[string, RpcHandler, unknown]>([
    ['a value', () => ({ models: [1] }), { result: { models: [1] } }],
    ['a promise', async () => ({ ok: true }), { result: { ok: true } }],
    ['undefined (sent as null)', () => undefined, { result: null }],
    [
      'a thrown RpcError',
      () => {
        throw RpcErrors.invalidParams([{ path: '/cursor', message: 'is invalid' }]);
      },
      {
        error: {
          code: -32602,
          message: 'Invalid params: /cursor is invalid',
          data: { errors: [{ path: '/cursor', message: 'is invalid' }] },
        },
      },
    ],
    [
      'a thrown Error',
      () => {
        throw new Error('agent resolution failed');
      },
      { error: { code: -32603, message: 'agent resolution failed' } },
    ],
    [
      'a rejected promise with a non-Error',
      () => Promise.reject('boom'),
      { error: { code: -32603, message: 'boom' } },
    ],
    [
      'an unserializable result',
      () => ({ n: BigInt(1) }),
      { error: { code: -32603, message: 'Do not know how to serialize a BigInt' } },
    ],
  ])('%s', async (_name, handler, expected) => {
    expect(await answerOf(handler)).toEqual({ jsonrpc: '2.0', id: 'x', ...(expected as object) });
  });
});

describe('Dispatcher: notifications and answers are handled on arrival (§1.6, §1.7)', () => {
  it('ignores notifications on an uninitialized connection and unknown notifications; never answers', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = harness.connect();
    client.send({ method: 'initialized' });
    client.send({ method: 'initialize', params: { clientInfo: { name: 'x' } } });
    await settle();
    expect(client.connection.state.initialized).toBe(false);
    expect(client.connection.state.readyForNotifications).toBe(false);
    expect(client.sink.lines).toEqual([]);
  });

  it('handles `initialized` while a request is still running (not queued)', async () => {
    const harness = withInitialize(createCoreHarness());
    const gate = deferred();
    harness.handlers.set('model/list', () => gate.promise.then(() => ({ models: [] })));
    const client = await initialized(harness);
    client.connection.state.readyForNotifications = false;
    client.send({ id: 1, method: 'model/list' });
    client.send({ method: 'initialized', params: 'ignored' });
    await settle();
    expect(client.connection.state.readyForNotifications).toBe(true);
    gate.resolve();
  });

  it('routes a response and an error response to the pending server request of that connection', async () => {
    const harness = withInitialize(createCoreHarness());
    const notifier = new Notifier(harness.registry);
    const gate = deferred();
    harness.handlers.set('model/list', () => gate.promise.then(() => ({ models: [] })));
    const client = await initialized(harness);
    const other = await initialized(harness);
    const first = notifier.request(
      client.connection.id,
      'approval/request',
      { requestId: 'approval_1' },
      'approval_1',
    );
    const second = notifier.request(
      client.connection.id,
      'approval/request',
      { requestId: 'approval_2' },
      'approval_2',
    );
    client.send({ id: 1, method: 'model/list' });
    other.send({ id: 'approval_1', result: { decision: 'deny' } });
    client.send({ id: 'approval_1', result: { decision: 'allow' } });
    client.send({ id: 'approval_1', result: { decision: 'deny' } });
    client.send({ id: 'approval_2', error: { code: -32603, message: 'handler failed' } });
    await expect(first).resolves.toEqual({ kind: 'result', result: { decision: 'allow' } });
    await expect(second).resolves.toEqual({
      kind: 'error',
      error: { code: -32603, message: 'handler failed' },
    });
    expect(client.sink.messages).toEqual([
      { jsonrpc: '2.0', id: 'approval_1', method: 'approval/request', params: { requestId: 'approval_1' } },
      { jsonrpc: '2.0', id: 'approval_2', method: 'approval/request', params: { requestId: 'approval_2' } },
    ]);
    expect(other.sink.lines).toEqual([]);
    gate.resolve();
  });

  it('ignores unmatched answers silently, in any connection state', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = harness.connect();
    client.send({ id: 'nope', result: 1 });
    client.send({ id: 7, result: 1 });
    client.send({ id: null, error: { code: 1, message: 'x' } });
    await settle();
    expect(client.sink.lines).toEqual([]);
  });

  it('does not match a numeric answer id to a string server request id', async () => {
    const harness = withInitialize(createCoreHarness());
    const notifier = new Notifier(harness.registry);
    const client = await initialized(harness);
    let settled = false;
    void notifier.request(client.connection.id, 'approval/request', {}, '5').then(() => (settled = true));
    client.send({ id: 5, result: {} });
    await settle();
    expect(settled).toBe(false);
  });
});

describe('AppServerCore line handling', () => {
  it('answers protocol errors in any state and keeps serving after bad lines', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = harness.connect();
    harness.core.receiveLine(client.connection, 'not json');
    harness.core.receiveLine(client.connection, Buffer.from([0xff]));
    harness.core.receiveLine(client.connection, '   ');
    harness.core.receiveLine(client.connection, '[]');
    harness.core.receiveLine(client.connection, '{"id":9,"method":"m","extra":1}');
    client.send(INIT);
    await settle();
    expect(client.sink.messages).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'Invalid Request' } },
      expect.objectContaining({ id: 0, result: expect.any(Object) }),
    ]);
  });

  it('answers bad lines in line order, after the requests that arrived before them', async () => {
    const harness = withInitialize(createCoreHarness());
    const gate = deferred();
    harness.handlers.set('model/list', () => gate.promise.then(() => ({ models: [] })));
    const client = await initialized(harness);
    client.send({ id: 1, method: 'model/list' });
    harness.core.receiveLine(client.connection, '{oops');
    harness.core.receiveLine(client.connection, '{"jsonrpc":"1.0","id":7,"method":"model/list"}');
    client.send({ id: 2, method: 'model/list' });
    await settle();
    expect(client.sink.lines).toEqual([]);
    gate.resolve();
    await settle();
    expect(client.sink.messages.map((m) => [m.id, (m.error as { code?: number } | undefined)?.code])).toEqual(
      [
        [1, undefined],
        [null, -32700],
        [7, -32600],
        [2, undefined],
      ],
    );
  });

  it('does not count bad lines as waiting requests', async () => {
    const harness = withInitialize(createCoreHarness({ maxQueuedRequests: 1 }));
    const gate = deferred();
    harness.handlers.set('model/list', () => gate.promise.then(() => ({ models: [] })));
    const client = await initialized(harness);
    client.send({ id: 1, method: 'model/list' });
    for (let i = 0; i < 5; i += 1) harness.core.receiveLine(client.connection, 'x');
    client.send({ id: 2, method: 'model/list' });
    gate.resolve();
    await settle();
    expect(client.sink.messages.map((m) => m.id)).toEqual([1, null, null, null, null, null, 2]);
  });

  it('frames bytes through the same handler, including input_too_large', async () => {
    const harness = withInitialize(createCoreHarness({ maxMessageBytes: 64 }));
    const client = harness.connect();
    // What the stdio transport does with its framer.
    const framer = new JsonlFramer(64);
    const deliver = (events: FramerEvent[]) => {
      for (const event of events) {
        if (event.kind === 'line') harness.core.receiveLine(client.connection, event.line);
        else harness.core.rejectOversizedLine(client.connection);
      }
    };
    deliver(framer.push(Buffer.from(`${'x'.repeat(100)}\n{"id":1,"method":"model/list"}\r\n`)));
    deliver(framer.push(Buffer.from('{"id":2,')));
    deliver(framer.push(Buffer.from('"method":"x"}')));
    deliver(framer.end());
    await settle();
    expect(client.sink.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { reason: 'input_too_large', limitBytes: 64 },
        },
      },
      { jsonrpc: '2.0', id: 1, error: { code: -32010, message: 'Not initialized' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32010, message: 'Not initialized' } },
    ]);
  });

  it('applies the size limit to in-process lines too', async () => {
    const harness = withInitialize(createCoreHarness({ maxMessageBytes: 16 }));
    const client = harness.connect();
    harness.core.receiveLine(client.connection, JSON.stringify({ id: 1, method: 'model/list' }));
    await settle();
    expect(client.sink.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { reason: 'input_too_large', limitBytes: 16 },
        },
      },
    ]);
  });

  it('writes nothing further while the sink waits for drain, then everything in order', async () => {
    const harness = withInitialize(createCoreHarness());
    harness.handlers.set('model/list', () => ({ models: [] }));
    const client = await initialized(harness);
    client.sink.writable = false;
    for (let id = 1; id <= 3; id += 1) client.send({ id, method: 'model/list' });
    await settle();
    expect(client.sink.messages.map((m) => m.id)).toEqual([1]);
    client.sink.writable = true;
    client.sink.drain();
    await settle();
    expect(client.sink.messages.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('disconnect drops waiting requests, settles pending server requests and fires close listeners', async () => {
    const harness = withInitialize(createCoreHarness());
    const notifier = new Notifier(harness.registry);
    const gate = deferred();
    const started: unknown[] = [];
    harness.handlers.set('model/list', async (_p, ctx) => {
      started.push(ctx.requestId);
      await gate.promise;
      return {};
    });
    const client = await initialized(harness);
    const closed: string[] = [];
    harness.registry.onConnectionClosed((c) => closed.push(c.id));
    const pending = notifier.request(client.connection.id, 'approval/request', {}, 'approval_1');
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'model/list' });
    await settle();
    harness.core.disconnect(client.connection);
    await expect(pending).resolves.toEqual({ kind: 'closed' });
    expect(closed).toEqual([client.connection.id]);
    expect(harness.registry.get(client.connection.id)).toBeUndefined();
    gate.resolve();
    await settle();
    expect(started).toEqual([1]);
  });
});

describe('AppServerCore shutdown (§1.9)', () => {
  it('on eof processes every waiting request first, then runs hooks, flushes and closes', async () => {
    const harness = withInitialize(createCoreHarness());
    const gate = deferred();
    harness.handlers.set('model/list', async (_p, ctx) => {
      if (ctx.requestId === 1) await gate.promise;
      return { id: ctx.requestId };
    });
    const client = await initialized(harness);
    const order: string[] = [];
    harness.core.onShutdown(async ({ reason, deadline }) => {
      order.push(`hook ${reason} ${deadline > Date.now() ? 'future-deadline' : 'past'}`);
      order.push(`responses before hook: ${client.sink.messages.length}`);
    });
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'model/list' });
    const done = harness.core.shutdown('eof');
    expect(harness.core.isShuttingDown).toBe(true);
    await settle();
    gate.resolve();
    await done;
    expect(order).toEqual(['hook eof future-deadline', 'responses before hook: 2']);
    expect(client.connection.isClosed).toBe(true);
  });

  it('on a signal discards waiting requests without a response', async () => {
    const harness = withInitialize(createCoreHarness());
    const gate = deferred();
    harness.handlers.set('model/list', async (_p, ctx) => {
      if (ctx.requestId === 1) await gate.promise;
      return {};
    });
    const client = await initialized(harness);
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'model/list' });
    client.send({ id: 3, method: 'model/list' });
    await settle();
    const done = harness.core.shutdown('signal');
    gate.resolve();
    await done;
    expect(client.sink.messages.map((m) => m.id)).toEqual([1]);
  });

  it('ignores input after shutdown began, and a failing hook does not stop the sequence', async () => {
    const harness = withInitialize(createCoreHarness());
    const client = await initialized(harness);
    harness.core.onShutdown(() => Promise.reject(new Error('hook failed')));
    const done = harness.core.shutdown('signal');
    client.send({ id: 1, method: 'model/list' });
    await done;
    expect(client.sink.lines).toEqual([]);
    expect(harness.logger.errors).toEqual(['shutdown step failed: hook failed']);
    expect(harness.core.shutdown('eof')).toBe(done);
  });
});
