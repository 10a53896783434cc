import { describeEachStore } from '../../support/store-drivers';
import { hostname } from 'node:os';
import {
  TypeOrmAppServerStore,
  processStartToken,
  StoreError,
  ThreadHasActiveTurnError,
} from '../../../src/persistence/sqlite';
import type { Message } from '../../../src/runtime/messages';
import { agentMessage, FOREIGN_KEY_VIOLATION, seedTurns, version } from './store-test-support';

interface OwnerRow {
  owner_pid: number;
  owner_token: string | null;
  owner_host: string;
}

describeEachStore('turns, conversation history and the turn lifecycle transactions', (driver) => {
  let store: TypeOrmAppServerStore;

  beforeEach(async () => {
    store = await driver().open(await driver().newLocation(), { logSink: () => undefined });
    await store.threads.create({
      threadId: 'thread_t',
      agentKey: 'default',
      cwd: null,
      metadata: {},
      now: 100,
    });
  });

  afterEach(async () => {
    await store.close();
  });

  /** turn_1 running on thread_t since 300. */
  const beginTurnOne = () =>
    store.beginTurn({ turnId: 'turn_1', threadId: 'thread_t', runId: 'run_1', input: [], startedAt: 300 });

  /** turn_1 running, its agent message item_A in progress. */
  async function turnOneStreaming(): Promise<void> {
    await beginTurnOne();
    await store.items.upsert(version(agentMessage('item_A', 'thread_t', 'turn_1', 'par', 'inProgress'), 1));
  }

  it('refuses a second running turn on a thread, whoever wrote the first (§8.2)', async () => {
    const turn = (turnId: string) => ({
      turnId,
      threadId: 'thread_t',
      runId: null,
      input: [],
      startedAt: 200,
    });
    await store.beginTurn(turn('turn_a'));
    // The same as another server process on the file: no in-memory state knows about turn_a.
    const second = store.beginTurn(turn('turn_b'));
    await expect(second).rejects.toBeInstanceOf(ThreadHasActiveTurnError);
    expect(await store.turns.get('turn_b')).toBeNull();
    expect((await store.threads.get('thread_t'))?.activeTurnId).toBe('turn_a');

    await store.turns.complete('turn_a', { status: 'completed', completedAt: 300, result: {} });
    await expect(store.beginTurn(turn('turn_c'))).resolves.toMatchObject({ status: 'running' });
  });

  it('creates a running turn owned by this process and completes it with its result', async () => {
    const input = [
      { type: 'text', text: 'Summarize the workspace' },
      { type: 'image', url: 'https://example.invalid/a.png' },
    ];
    const running = await store.turns.createRunning({
      turnId: 'turn_1',
      threadId: 'thread_t',
      runId: 'run_1',
      input,
      startedAt: 1780410000098,
    });
    expect(running).toEqual({
      turnId: 'turn_1',
      threadId: 'thread_t',
      runId: 'run_1',
      status: 'running',
      startedAt: 1780410000098,
      completedAt: null,
      input,
      result: {},
    });
    expect(await store.query('SELECT owner_pid, owner_host, owner_token FROM turns')).toEqual<OwnerRow[]>([
      { owner_pid: process.pid, owner_host: hostname(), owner_token: processStartToken(process.pid) },
    ]);

    const result = { finalOutput: 'done', completionReason: 'tool_finish', tokenUsage: { cycles: [] } };
    expect(
      await store.turns.complete('turn_1', { status: 'completed', completedAt: 1780410000708, result }),
    ).toEqual({ ...running, status: 'completed', completedAt: 1780410000708, result });
    expect(
      await store.turns.complete('turn_missing', { status: 'failed', completedAt: 1, result: {} }),
    ).toBeNull();
  });

  it('lists a thread’s turns in creation order, including same-millisecond starts', async () => {
    await seedTurns(
      store,
      (
        [
          ['turn_b', 200],
          ['turn_a', 200],
          ['turn_c', 150],
        ] as const
      ).map(([turnId, startedAt]) => ({ turnId, threadId: 'thread_t', runId: null, input: [], startedAt })),
    );
    expect((await store.turns.listByThread('thread_t')).map((t) => t.turnId)).toEqual([
      'turn_c',
      'turn_b',
      'turn_a',
    ]);
    expect(await store.turns.listByThread('thread_other')).toEqual([]);
    expect(await store.turns.setRunId('turn_c', 'run_late')).toMatchObject({ runId: 'run_late' });
  });

  it('beginTurn persists the running turn and the thread’s active turn together', async () => {
    const turn = await store.beginTurn({
      turnId: 'turn_1',
      threadId: 'thread_t',
      runId: 'run_1',
      input: [],
      startedAt: 300,
    });
    expect(turn.status).toBe('running');
    expect(await store.threads.get('thread_t')).toMatchObject({ activeTurnId: 'turn_1', updatedAt: 300 });
  });

  it('beginTurn leaves no turn behind when the thread does not exist', async () => {
    const begin = store.beginTurn({
      turnId: 'turn_x',
      threadId: 'thread_missing',
      runId: 'run_x',
      input: [],
      startedAt: 1,
    });
    await expect(begin).rejects.toBeInstanceOf(StoreError);
    expect(await store.turns.get('turn_x')).toBeNull();
  });

  it('finishTurn writes final items, the turn, the history and releases the thread atomically', async () => {
    await turnOneStreaming();
    const messages: Message[] = [
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'task_finish', arguments: '{}' } }],
      },
      { role: 'tool', content: '{"ok":true}', tool_call_id: 'c1' },
    ];
    await store.finishTurn({
      threadId: 'thread_t',
      turnId: 'turn_1',
      completion: { status: 'interrupted', completedAt: 400, result: { error: 'stop' } },
      items: [version(agentMessage('item_A', 'thread_t', 'turn_1', 'par', 'interrupted', 400), 1, 2)],
      messages,
      now: 400,
    });
    expect(await store.turns.get('turn_1')).toMatchObject({
      status: 'interrupted',
      completedAt: 400,
      result: { error: 'stop' },
    });
    expect(await store.items.get('item_A')).toMatchObject({ status: 'interrupted', updatedAt: 400 });
    expect(await store.conversations.load('thread_t')).toEqual(messages);
    expect(await store.threads.get('thread_t')).toMatchObject({ activeTurnId: null, updatedAt: 400 });
  });

  it('finishTurn of a turn another instance already ended as lost writes nothing (§8.2, docs/spec/postgres.md §2)', async () => {
    await turnOneStreaming();
    const owner = {
      ownerHost: hostname(),
      ownerPid: process.pid,
      ownerToken: processStartToken(process.pid),
    };
    expect(await store.recoverTurnsOwnedBy(owner, 'server instance lost', 350)).toHaveLength(1);
    // The survivor's next turn on the thread is running.
    await store.beginTurn({
      turnId: 'turn_2',
      threadId: 'thread_t',
      runId: 'run_2',
      input: [],
      startedAt: 360,
    });

    // The paused owner comes back and finishes its recovered turn.
    await store.finishTurn({
      threadId: 'thread_t',
      turnId: 'turn_1',
      completion: { status: 'completed', completedAt: 400, result: {} },
      items: [version(agentMessage('item_A', 'thread_t', 'turn_1', 'partial', 'completed', 400), 1, 5)],
      messages: [{ role: 'user', content: 'late' }],
      now: 400,
    });
    expect(await store.turns.get('turn_1')).toMatchObject({
      status: 'interrupted',
      completedAt: 350,
      result: { error: 'server instance lost' },
    });
    expect(await store.items.get('item_A')).toMatchObject({ status: 'interrupted' });
    expect(await store.conversations.load('thread_t')).toEqual([]);
    expect(await store.threads.get('thread_t')).toMatchObject({ activeTurnId: 'turn_2' });
  });

  it('finishTurn rolls everything back when one write fails', async () => {
    await beginTurnOne();
    const finishing = store.finishTurn({
      threadId: 'thread_t',
      turnId: 'turn_1',
      completion: { status: 'completed', completedAt: 400, result: {} },
      // An item of an unknown turn violates the foreign key.
      items: [version(agentMessage('item_Z', 'thread_t', 'turn_unknown', 'z'), 1)],
      messages: [{ role: 'user', content: 'hello' }],
      now: 400,
    });
    await expect(finishing).rejects.toThrow(FOREIGN_KEY_VIOLATION);
    expect(await store.turns.get('turn_1')).toMatchObject({ status: 'running' });
    expect(await store.conversations.load('thread_t')).toEqual([]);
    expect(await store.threads.get('thread_t')).toMatchObject({ activeTurnId: 'turn_1' });
  });

  it('appends history after the thread’s last message across turns and loads it in order', async () => {
    await seedTurns(store, [
      { turnId: 'turn_1', threadId: 'thread_t', runId: 'run_1', input: [], startedAt: 1 },
      { turnId: 'turn_2', threadId: 'thread_t', runId: 'run_2', input: [], startedAt: 2 },
    ]);
    await store.conversations.append('thread_t', 'turn_1', [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first', reasoning_content: 'thinking' },
    ]);
    await store.conversations.append('thread_t', 'turn_2', []);
    await store.conversations.append('thread_t', 'turn_2', [{ role: 'user', content: 'two' }]);
    expect(await store.conversations.load('thread_t')).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first', reasoning_content: 'thinking' },
      { role: 'user', content: 'two' },
    ]);
    expect(await store.query('SELECT turn_id, seq FROM conversation_messages ORDER BY seq')).toEqual([
      { turn_id: 'turn_1', seq: 1 },
      { turn_id: 'turn_1', seq: 2 },
      { turn_id: 'turn_2', seq: 3 },
    ]);
  });

  it('appends a long history in chunks', async () => {
    await store.turns.createRunning({
      turnId: 'turn_1',
      threadId: 'thread_t',
      runId: 'run_1',
      input: [],
      startedAt: 1,
    });
    const many: Message[] = Array.from({ length: 1_001 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    await store.conversations.append('thread_t', 'turn_1', many);
    const loaded = await store.conversations.load('thread_t');
    expect(loaded).toHaveLength(1_001);
    expect(loaded[1_000]).toEqual({ role: 'user', content: 'm1000' });
  });

  it('serializes concurrent transactions on the single sqlite connection', async () => {
    await store.threads.create({
      threadId: 'thread_u',
      agentKey: 'default',
      cwd: null,
      metadata: {},
      now: 100,
    });
    await store.turns.createRunning({
      turnId: 'turn_t',
      threadId: 'thread_t',
      runId: 'r',
      input: [],
      startedAt: 1,
    });
    await store.turns.createRunning({
      turnId: 'turn_u',
      threadId: 'thread_u',
      runId: 'r',
      input: [],
      startedAt: 1,
    });
    const writes: Promise<void>[] = [];
    for (let i = 1; i <= 20; i += 1) {
      for (const [threadId, turnId] of [
        ['thread_t', 'turn_t'],
        ['thread_u', 'turn_u'],
      ]) {
        writes.push(
          store.items.upsertMany([version(agentMessage(`${turnId}_${i}`, threadId, turnId, `${i}`), i)]),
        );
        writes.push(store.conversations.append(threadId, turnId, [{ role: 'user', content: `${i}` }]));
      }
    }
    await Promise.all(writes);
    for (const threadId of ['thread_t', 'thread_u']) {
      const positions = (await store.query(
        'SELECT position FROM items WHERE thread_id = ? ORDER BY position',
        [threadId],
      )) as Array<{ position: number }>;
      expect(positions.map((p) => p.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect((await store.conversations.load(threadId)).map((m) => m.content)).toEqual(
        Array.from({ length: 20 }, (_, i) => `${i + 1}`),
      );
    }
  });
});
