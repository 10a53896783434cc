import { describeEachStore } from '../../support/store-drivers';
/** `TypeOrmAppServerStore.readThread`: thread/read's single store read (thread and turns joined, items). */
import { TypeOrmAppServerStore, completeReplay } from '../../../src/persistence/sqlite';
import { agentMessage, seedTurns, version } from './store-test-support';

describeEachStore('TypeOrmAppServerStore.readThread', (driver) => {
  let store: TypeOrmAppServerStore;

  beforeEach(async () => {
    store = await driver().open(await driver().newLocation());
    await store.threads.create({
      threadId: 'thread_t',
      agentKey: 'coder',
      cwd: '/work',
      metadata: { title: 'T' },
      now: 100,
    });
    await store.threads.create({
      threadId: 'thread_empty',
      agentKey: 'default',
      cwd: null,
      metadata: {},
      now: 50,
    });
  });

  afterEach(async () => {
    await store.close();
  });

  it('is null for an unknown thread', async () => {
    expect(await store.readThread('thread_missing')).toBeNull();
  });

  it('returns a thread without turns or items', async () => {
    expect(await store.readThread('thread_empty')).toEqual({
      thread: {
        threadId: 'thread_empty',
        agentKey: 'default',
        cwd: null,
        metadata: {},
        createdAt: 50,
        updatedAt: 50,
        archivedAt: null,
        activeTurnId: null,
        forkedFrom: null,
        mcpServers: null,
        sandbox: null,
      },
      turns: [],
      items: { versions: [] },
    });
  });

  it('reads what the repositories read: the thread, its turns in creation order, the replay window', async () => {
    // turn_b and turn_c start in the same millisecond: insertion order breaks the tie.
    await seedTurns(
      store,
      (
        [
          ['turn_b', 300],
          ['turn_c', 300],
          ['turn_a', 200],
        ] as const
      ).map(([turnId, startedAt]) => ({
        turnId,
        threadId: 'thread_t',
        runId: `run_${turnId}`,
        input: [{ type: 'text', text: turnId }],
        startedAt,
      })),
    );
    await store.turns.complete('turn_a', {
      status: 'completed',
      completedAt: 250,
      result: { finalOutput: 'a' },
    });
    await store.turns.createRunning({
      turnId: 'turn_u',
      threadId: 'thread_empty',
      runId: null,
      input: [],
      startedAt: 1,
    });
    await store.items.upsertMany([
      version(agentMessage('item_2', 'thread_t', 'turn_b', 'two'), 2),
      version(agentMessage('item_1', 'thread_t', 'turn_a', 'one', 'completed'), 1, 3),
    ]);

    const snapshot = await store.readThread('thread_t', { afterItemId: 'item_2' });
    expect(snapshot?.thread).toEqual(await store.threads.get('thread_t'));
    expect(snapshot?.turns.map((turn) => turn.turnId)).toEqual(['turn_a', 'turn_b', 'turn_c']);
    expect(snapshot?.turns).toEqual(await store.turns.listByThread('thread_t'));
    expect(snapshot?.items.anchorCreatedSeq).toBe(2);
    expect(completeReplay(snapshot!.items, [], { afterItemId: 'item_2' })).toEqual(
      await store.items.read('thread_t', { afterItemId: 'item_2' }),
    );
    expect(completeReplay(snapshot!.items, []).map((item) => item.itemId)).toEqual(['item_1']);
  });
});
