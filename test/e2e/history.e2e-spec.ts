/**
 * Long threads end to end (history.md): `thread/metadata/update` against the real CLI over stdio with
 * a real sqlite store in a temp dir. Build first (`npm run build`).
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
import { BACKEND, E2eSandbox, MODEL, sleep, type AppServerSession } from '../helpers/app-server-session';
import { fakeSettingsDocument } from '../helpers/fake-openai-server';
import { InProcessConnection } from '../helpers/in-process-connection';

jest.setTimeout(45_000);

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-history-e2e-');
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

describe('thread/metadata/update (history.md §3)', () => {
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
});

describe('thread/updated fan-out (history.md §3)', () => {
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
      store: { path: join(sandbox.root, 'fanout.sqlite') },
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
