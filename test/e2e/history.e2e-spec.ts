/**
 * Long threads end to end (history.md): `thread/metadata/update` against the real CLI over stdio with
 * a real store — a sqlite file in a temp dir, and a PostgreSQL database. Build first (`npm run build`).
 */
import { join } from 'node:path';
import {
  Agent,
  FixedModelProvider,
  Runner,
  createOpenAiCompatibleClient,
  parseLlmSettingsDocument,
  resolveModelEndpoint,
  startInProcessAppServer,
} from '../../dist';
import {
  BACKEND,
  E2eSandbox,
  ID_PATTERN,
  MODEL,
  isTurnCompleted,
  sleep,
  type AppServerSession,
} from '../helpers/app-server-session';
import { fakeSettingsDocument } from '../helpers/fake-openai-server';
import { InProcessConnection } from '../helpers/in-process-connection';
import { finishReply, gate, requestMessages } from '../helpers/model-replies';

import { STORE_DRIVERS } from '../support/store-drivers';

jest.setTimeout(45_000);

// docs/spec/postgres.md §1: the history behaviour holds on both store drivers.
describe.each(STORE_DRIVERS)('history over stdio [%s store]', (storeDriver) => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-history-e2e-', { storeDriver });
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  async function ready(): Promise<AppServerSession> {
    const session = sandbox.spawn();
    await session.initialize();
    return session;
  }

  type ThreadView = Record<string, unknown>;
  const UNKNOWN_THREAD = 'thread_00000000000000000000000000000000';

  describe('thread/metadata/update (docs/spec/history.md §3)', () => {
    it('patches shallowly (null deletes), moves updatedAt and answers the updated thread', async () => {
      const session = await ready();
      const { threadId } = await session.startThread({
        metadata: { title: 'old', keep: { nested: 1 }, drop: true },
      });
      const before = (await session.call<{ thread: ThreadView }>('thread/read', { threadId })).thread;
      await sleep(5);

      const updated = await session.call<ThreadView>('thread/metadata/update', {
        threadId,
        metadata: { title: 'new', drop: null, added: [1, 2], missing: null },
      });
      expect(updated).toEqual({
        ...before,
        metadata: { title: 'new', keep: { nested: 1 }, added: [1, 2] },
        updatedAt: expect.any(Number),
      });
      expect(Number(updated.updatedAt)).toBeGreaterThan(Number(before.updatedAt));
      const read = (await session.call<{ thread: ThreadView }>('thread/read', { threadId })).thread;
      expect(read).toEqual(updated);
    });

    it('updates archived threads; unknown thread is -32020; metadata must be an object', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      await session.call('thread/archive', { threadId });
      const updated = await session.call<ThreadView>('thread/metadata/update', {
        threadId,
        metadata: { title: 'archived title' },
      });
      expect(updated).toMatchObject({ status: 'archived', metadata: { title: 'archived title' } });
      expect(
        await session.failure('thread/metadata/update', { threadId: UNKNOWN_THREAD, metadata: {} }),
      ).toEqual({ code: -32020, message: 'Thread not found' });
      expect(await session.failure('thread/metadata/update', { threadId, metadata: [1] })).toMatchObject({
        code: -32602,
      });
      expect(await session.failure('thread/metadata/update', { threadId })).toMatchObject({ code: -32602 });
    });

    // Issue #45 item 8: keys named like Object.prototype members, and `__proto__`, are ordinary
    // metadata keys (docs/spec-interpretations.md "Metadata keys named like Object.prototype members").
    it('keys named like Object.prototype members and __proto__ round-trip through start, read, list, update and a restart', async () => {
      // JSON.parse makes `__proto__` an own member (an object literal would set the prototype instead).
      const metadata = JSON.parse(
        '{"toString":"t","valueOf":1,"hasOwnProperty":true,"constructor":{"name":"c"},' +
          '"__proto__":{"polluted":true},"isPrototypeOf":null,"title":"x"}',
      ) as Record<string, unknown>;
      const expected = metadata;
      const ownKeys = (value: unknown): string[] => Object.keys(value as object).sort();
      const session = await ready();
      const { threadId } = await session.startThread({ metadata });
      const read = async (client: AppServerSession): Promise<ThreadView> =>
        (await client.call<{ thread: ThreadView }>('thread/read', { threadId })).thread;
      expect(ownKeys((await read(session)).metadata)).toEqual(ownKeys(expected));
      expect((await read(session)).metadata).toEqual(expected);
      const listed = await session.call<{ threads: ThreadView[] }>('thread/list', {});
      expect(listed.threads.find((thread) => thread.threadId === threadId)?.metadata).toEqual(expected);

      const patch = JSON.parse(
        '{"toString":null,"valueOf":2,"__proto__":{"replaced":1},"propertyIsEnumerable":"p"}',
      ) as Record<string, unknown>;
      const patched = JSON.parse(
        '{"valueOf":2,"hasOwnProperty":true,"constructor":{"name":"c"},' +
          '"__proto__":{"replaced":1},"isPrototypeOf":null,"title":"x","propertyIsEnumerable":"p"}',
      ) as Record<string, unknown>;
      const updated = await session.call<ThreadView>('thread/metadata/update', { threadId, metadata: patch });
      expect(ownKeys(updated.metadata)).toEqual(ownKeys(patched));
      expect(updated.metadata).toEqual(patched);
      expect((await read(session)).metadata).toEqual(patched);

      // A thread without them gets them by a patch, and loses them by `null` like any key.
      const plain = await session.startThread({ metadata: { title: 'plain' } });
      const added = await session.call<ThreadView>('thread/metadata/update', {
        threadId: plain.threadId,
        metadata: JSON.parse('{"__proto__":{"a":1},"constructor":"k","toString":"s"}'),
      });
      const withKeys = JSON.parse('{"title":"plain","__proto__":{"a":1},"constructor":"k","toString":"s"}');
      expect(ownKeys(added.metadata)).toEqual(ownKeys(withKeys));
      expect(added.metadata).toEqual(withKeys);
      const removed = await session.call<ThreadView>('thread/metadata/update', {
        threadId: plain.threadId,
        metadata: JSON.parse('{"__proto__":null,"constructor":null}'),
      });
      expect(removed.metadata).toEqual({ title: 'plain', toString: 's' });
      expect(ownKeys(removed.metadata)).toEqual(['title', 'toString']);

      // Nothing leaked into Object.prototype of the server (a polluted prototype shows in every object).
      const probe = await session.startThread({ metadata: {} });
      expect(
        (await session.call<{ thread: ThreadView }>('thread/read', { threadId: probe.threadId })).thread
          .metadata,
      ).toEqual({});
      expect((await session.close()).code).toBe(0);

      const again = await ready();
      const reread = await read(again);
      expect(ownKeys(reread.metadata)).toEqual(ownKeys(patched));
      expect(reread.metadata).toEqual(patched);
    });
  });

  describe('thread/updated fan-out (docs/spec/history.md §3)', () => {
    it('reaches the requester and every subscriber of the thread, nobody else', async () => {
      const settings = parseLlmSettingsDocument(
        fakeSettingsDocument({
          endpoints: [{ id: 'fake', apiBase: sandbox.model.baseUrl }],
          backend: BACKEND,
          model: MODEL,
        }),
      );
      const resolved = resolveModelEndpoint(settings, BACKEND, MODEL);
      const client = createOpenAiCompatibleClient(settings, resolved, { timeoutSeconds: 30 });
      const server = await startInProcessAppServer({
        runner: new Runner({ modelProvider: new FixedModelProvider(resolved, client) }),
        host: {
          resolveAgent: async () =>
            Agent.create({ name: 'a', instructions: 'x', model: { type: 'resolved', config: resolved } }),
          buildRunConfig: async () => ({}),
          listModels: async () => ({ models: [] }),
        },
        // The embedding API takes a postgres:// URL too (docs/spec/postgres.md §1).
        store:
          storeDriver === 'sqlite'
            ? { path: join(sandbox.root, 'fanout.sqlite') }
            : { url: sandbox.storePath('fanout') },
      });
      try {
        const [requester, watcher, bystander] = [0, 1, 2].map(() => new InProcessConnection(server.core));
        for (const c of [requester, watcher, bystander]) await c.initialize();
        const { threadId } = await watcher.call<{ threadId: string }>('thread/start');
        await bystander.call('thread/start');
        await requester.drain();
        await watcher.drain();
        await bystander.drain();

        // The requester is not subscribed: it still gets the notification (once).
        const thread = await requester.call('thread/metadata/update', { threadId, metadata: { title: 't' } });
        const expected = [{ jsonrpc: '2.0', method: 'thread/updated', params: { thread } }];
        expect(await requester.drain()).toEqual(expected);
        expect(await watcher.drain()).toEqual(expected);
        expect(await bystander.drain()).toEqual([]);
        expect([requester, watcher, bystander].flatMap((c) => c.transcriptProblems())).toEqual([]);
      } finally {
        await server.close();
      }
    });
  });

  const textInput = (text: string) => [{ type: 'text', text }];
  interface Snapshot {
    thread: ThreadView;
    turns: Array<Record<string, unknown>>;
    items: Array<Record<string, unknown>>;
  }

  async function runTurn(session: AppServerSession, threadId: string, text: string): Promise<string> {
    sandbox.model.enqueue(finishReply(`answer to ${text}`, { content: [`answer to ${text}`] }));
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput(text),
    });
    await session.collectUntil(isTurnCompleted(threadId));
    return turnId;
  }

  /** The conversation part of a model request: everything after the system message. */
  function historyOf(requestIndex: number): Array<Record<string, unknown>> {
    return requestMessages(sandbox.model.requests[requestIndex].body).slice(1);
  }

  describe('thread/fork (docs/spec/history.md §2)', () => {
    it('copies the turns up to a middle turn with fresh ids; a turn on the fork sees exactly that history', async () => {
      const session = await ready();
      const { threadId } = await session.startThread({ metadata: { title: 'source' } });
      const turnIds: string[] = [];
      for (const text of ['one', 'two', 'three']) turnIds.push(await runTurn(session, threadId, text));
      const source = await session.call<Snapshot>('thread/read', { threadId });

      const fork = await session.call<Record<string, unknown>>('thread/fork', {
        threadId,
        turnId: turnIds[1],
      });
      expect(fork).toEqual({
        threadId: expect.stringMatching(ID_PATTERN.thread),
        agentKey: 'default',
        cwd: null,
        status: 'idle',
        forkedFrom: { threadId, turnId: turnIds[1] },
      });
      const started = await session.waitFor((m) => m.method === 'thread/started');
      expect(started.params).toEqual({
        threadId: fork.threadId,
        agentKey: 'default',
        cwd: null,
        status: 'idle',
      });

      const copy = await session.call<Snapshot>('thread/read', { threadId: fork.threadId });
      expect(copy.thread).toMatchObject({
        metadata: { title: 'source' },
        forkedFrom: fork.forkedFrom,
        archivedAt: null,
      });
      expect(source.thread.forkedFrom).toBeNull();
      expect(copy.turns).toHaveLength(2);
      const strip = (o: Record<string, unknown>) => {
        const { itemId: _i, threadId: _t, turnId: _u, ...rest } = o;
        return rest;
      };
      const sourceItems = source.items.filter((item) => turnIds.slice(0, 2).includes(String(item.turnId)));
      expect(copy.items.map(strip)).toEqual(sourceItems.map(strip));
      const sourceIds = new Set([threadId, ...turnIds, ...source.items.map((item) => item.itemId)]);
      for (const item of copy.items) {
        expect(sourceIds.has(item.itemId)).toBe(false);
        expect(item.threadId).toBe(fork.threadId);
        expect(copy.turns.map((turn) => turn.turnId)).toContain(item.turnId);
      }
      for (const turn of copy.turns) expect(sourceIds.has(turn.turnId)).toBe(false);

      // A turn on the fork: history of turns one and two only.
      await runTurn(session, String(fork.threadId), 'four');
      const afterTurnTwo = historyOf(2).slice(0, -1);
      expect(afterTurnTwo[0]).toEqual({ role: 'user', content: 'one' });
      expect(historyOf(3)).toEqual([...afterTurnTwo, { role: 'user', content: 'four' }]);

      // The source's next request is unchanged by the fork: its own three turns, nothing of the fork.
      await runTurn(session, threadId, 'five');
      const sourceNext = historyOf(4);
      expect(sourceNext.slice(0, historyOf(2).length)).toEqual(historyOf(2));
      expect(JSON.stringify(sourceNext)).not.toContain('four');
      expect(sourceNext[sourceNext.length - 1]).toEqual({ role: 'user', content: 'five' });
    });
  });

  describe('thread/fork errors (docs/spec/history.md §2)', () => {
    it('-32602 for a running or foreign turnId and a thread without finished turn; -32020 unknown', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      expect(await session.failure('thread/fork', { threadId })).toEqual({
        code: -32602,
        message: 'Thread has no finished turn',
      });
      const other = await session.startThread();
      const foreign = await runTurn(session, other.threadId, 'elsewhere');
      await runTurn(session, threadId, 'done');

      const hold = gate();
      sandbox.model.enqueue(finishReply('slow', { content: ['slow'], gate: hold.promise }));
      const { turnId: running } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('slow'),
      });
      const notFound = { code: -32602, message: 'Turn not found in thread' };
      expect(await session.failure('thread/fork', { threadId, turnId: running })).toEqual(notFound);
      expect(await session.failure('thread/fork', { threadId, turnId: foreign })).toEqual(notFound);
      expect(await session.failure('thread/fork', { threadId: UNKNOWN_THREAD })).toEqual({
        code: -32020,
        message: 'Thread not found',
      });
      // Default turn while one runs: the last finished one, never the running one.
      const fork = await session.call<{ threadId: string }>('thread/fork', { threadId, metadata: { m: 1 } });
      const copy = await session.call<Snapshot>('thread/read', { threadId: fork.threadId });
      expect(copy.turns.map((turn) => turn.status)).toEqual(['completed']);
      expect(copy.thread.metadata).toEqual({ m: 1 });
      hold.open();
      await session.collectUntil(isTurnCompleted(threadId));
    });
  });
});
