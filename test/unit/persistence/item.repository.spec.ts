import { describeEachStore } from '../../support/store-drivers';
import { TypeOrmAppServerStore } from '../../../src/persistence/sqlite';
import { agentMessage, FOREIGN_KEY_VIOLATION, seedTurns, version } from './store-test-support';

interface PositionRow {
  item_id: string;
  position: number;
  created_seq: number;
  change_seq: number;
}

describeEachStore('ItemRepository', (driver) => {
  let store: TypeOrmAppServerStore;

  beforeEach(async () => {
    // The foreign-key failure below is expected; keep its TypeORM log line out of the test output.
    store = await driver().open(await driver().newLocation(), { logSink: () => undefined });
    for (const threadId of ['thread_t', 'thread_u']) {
      await store.threads.create({ threadId, agentKey: 'default', cwd: null, metadata: {}, now: 1 });
    }
    await seedTurns(store, [
      { turnId: 'turn_1', threadId: 'thread_t', runId: 'run_1', input: [], startedAt: 2 },
      { turnId: 'turn_2', threadId: 'thread_t', runId: 'run_2', input: [], startedAt: 3 },
      { turnId: 'turn_u', threadId: 'thread_u', runId: 'run_u', input: [], startedAt: 3 },
    ]);
  });

  afterEach(async () => {
    await store.close();
  });

  const rows = async (threadId: string) =>
    (await store.query(
      'SELECT item_id, position, created_seq, change_seq FROM items WHERE thread_id = ? ORDER BY position',
      [threadId],
    )) as PositionRow[];

  it('upserts one row per item, keeping the first-appearance position and created_seq', async () => {
    await store.items.upsert(version(agentMessage('item_A', 'thread_t', 'turn_1', '', 'inProgress'), 1));
    await store.items.upsert(version(agentMessage('item_B', 'thread_t', 'turn_1', 'b'), 2));
    await store.items.upsert(
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'done', 'completed', 5), 1, 3),
    );
    await store.items.upsert(version(agentMessage('item_X', 'thread_u', 'turn_u', 'x'), 1));

    expect(await rows('thread_t')).toEqual([
      { item_id: 'item_A', position: 1, created_seq: 1, change_seq: 3 },
      { item_id: 'item_B', position: 2, created_seq: 2, change_seq: 2 },
    ]);
    expect(await rows('thread_u')).toEqual([
      { item_id: 'item_X', position: 1, created_seq: 1, change_seq: 1 },
    ]);
    expect(await store.items.get('item_A')).toEqual(
      agentMessage('item_A', 'thread_t', 'turn_1', 'done', 'completed', 5),
    );
    expect(await store.items.read('thread_t')).toEqual([
      agentMessage('item_A', 'thread_t', 'turn_1', 'done', 'completed', 5),
      agentMessage('item_B', 'thread_t', 'turn_1', 'b'),
    ]);
  });

  it('ignores a write older than the stored state (a late delta after the completion)', async () => {
    await store.items.upsert(
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'final', 'completed'), 1, 5),
    );
    await store.items.upsert(
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'partial', 'inProgress'), 1, 4),
    );
    expect(await store.items.get('item_A')).toMatchObject({
      status: 'completed',
      payload: { text: 'final' },
    });
    expect(await store.items.lastChangeSeq('thread_t')).toBe(5);
    expect(await store.items.lastChangeSeq('thread_u')).toBe(0);
  });

  it('upsertMany writes all versions or none', async () => {
    await store.items.upsertMany([
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'a'), 1),
      version(agentMessage('item_B', 'thread_t', 'turn_2', 'b'), 2),
    ]);
    const failing = store.items.upsertMany([
      version(agentMessage('item_C', 'thread_t', 'turn_2', 'c'), 3),
      version(agentMessage('item_D', 'thread_t', 'turn_missing', 'd'), 4),
    ]);
    await expect(failing).rejects.toThrow(FOREIGN_KEY_VIOLATION);
    expect((await rows('thread_t')).map((r) => r.item_id)).toEqual(['item_A', 'item_B']);
  });

  it('upsertMany updates known items in place and appends new ones after the last position, in order', async () => {
    await store.items.upsert(version(agentMessage('item_A', 'thread_t', 'turn_1', '', 'inProgress'), 1));
    await store.items.upsertMany([
      version(agentMessage('item_B', 'thread_t', 'turn_1', 'b'), 2),
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'a', 'completed'), 1, 3),
      version(agentMessage('item_C', 'thread_t', 'turn_1', 'c'), 4),
      version(agentMessage('item_X', 'thread_u', 'turn_u', 'x'), 5),
    ]);
    await store.items.upsertMany([version(agentMessage('item_D', 'thread_t', 'turn_2', 'd'), 6)]);

    const stored = await rows('thread_t');
    expect(stored.map(({ item_id, created_seq, change_seq }) => [item_id, created_seq, change_seq])).toEqual([
      ['item_A', 1, 3],
      ['item_B', 2, 2],
      ['item_C', 4, 4],
      ['item_D', 6, 6],
    ]);
    // Positions only order the rows: A keeps its first one, the new rows follow in batch order.
    expect(stored[0].position).toBe(1);
    expect(new Set(stored.map((row) => row.position)).size).toBe(stored.length);
    expect((await rows('thread_u')).map((row) => row.item_id)).toEqual(['item_X']);
    expect(await store.items.get('item_A')).toMatchObject({ status: 'completed', payload: { text: 'a' } });
  });

  it('upsertMany keeps the latest of several versions of one item in a batch', async () => {
    await store.items.upsertMany([
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'a', 'inProgress'), 1, 1),
      version(agentMessage('item_B', 'thread_t', 'turn_1', 'b'), 2),
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'a!', 'completed'), 1, 3),
      version(agentMessage('item_A', 'thread_t', 'turn_1', 'stale', 'inProgress'), 1, 2),
    ]);
    expect((await rows('thread_t')).map((row) => [row.item_id, row.change_seq])).toEqual([
      ['item_A', 3],
      ['item_B', 2],
    ]);
    expect(await store.items.get('item_A')).toMatchObject({ payload: { text: 'a!' } });
  });

  it('upsertMany of more rows than one statement takes stays in order and atomic', async () => {
    const many = Array.from({ length: 1_203 }, (_, index) =>
      version(
        agentMessage(`item_${String(index).padStart(4, '0')}`, 'thread_t', 'turn_1', `${index}`),
        index + 1,
      ),
    );
    await store.items.upsertMany(many);
    expect((await rows('thread_t')).map((row) => row.item_id)).toEqual(
      many.map((entry) => entry.item.itemId),
    );

    // The bad row is in the last statement: the statements before it are rolled back with it.
    const failing = Array.from({ length: 1_001 }, (_, index) =>
      version(
        agentMessage(`late_${index}`, 'thread_t', index === 1_000 ? 'turn_missing' : 'turn_2', 'x'),
        2_000 + index,
      ),
    );
    await expect(store.items.upsertMany(failing)).rejects.toThrow(FOREIGN_KEY_VIOLATION);
    expect(await rows('thread_t')).toHaveLength(1_203);
  });

  describe('read with afterItemId (docs/spec/protocol.md §8.8)', () => {
    beforeEach(async () => {
      // 1 A created, 2 B created, 3 C created, 4 A updated (older item updated later), 5 D created.
      await store.items.upsert(version(agentMessage('item_A', 'thread_t', 'turn_1', 'a', 'inProgress'), 1));
      await store.items.upsert(version(agentMessage('item_B', 'thread_t', 'turn_1', 'b'), 2));
      await store.items.upsert(version(agentMessage('item_C', 'thread_t', 'turn_1', 'c'), 3));
      await store.items.upsert(
        version(agentMessage('item_A', 'thread_t', 'turn_1', 'a!', 'completed'), 1, 4),
      );
      await store.items.upsert(version(agentMessage('item_D', 'thread_t', 'turn_2', 'd'), 5));
    });

    const readIds = async (query: Parameters<TypeOrmAppServerStore['items']['read']>[1]) =>
      (await store.items.read('thread_t', query)).map((item) => item.itemId);

    it.each([
      ['all items without afterItemId', {}, ['item_A', 'item_B', 'item_C', 'item_D']],
      [
        'all items for an unknown id',
        { afterItemId: 'item_unknown' },
        ['item_A', 'item_B', 'item_C', 'item_D'],
      ],
      [
        'after B: A (updated at 4) reappears in first-appearance order, B omitted',
        { afterItemId: 'item_B' },
        ['item_A', 'item_C', 'item_D'],
      ],
      ['after C: A changed later than C was created', { afterItemId: 'item_C' }, ['item_A', 'item_D']],
      ['after D: nothing', { afterItemId: 'item_D' }, []],
      ['limit after the filter', { afterItemId: 'item_B', limit: 2 }, ['item_A', 'item_C']],
      [
        'an item of another thread is unknown here',
        { afterItemId: 'item_X' },
        ['item_A', 'item_B', 'item_C', 'item_D'],
      ],
    ])('%s', async (_name, query, expected) => {
      await store.items.upsert(version(agentMessage('item_X', 'thread_u', 'turn_u', 'x'), 9));
      expect(await readIds(query)).toEqual(expected);
    });

    it('uses the live in-memory state of an in-progress item over the stored row', async () => {
      const live = [
        version(agentMessage('item_D', 'thread_t', 'turn_2', 'd streamed', 'inProgress', 7), 5, 6),
      ];
      const items = await store.items.read('thread_t', { afterItemId: 'item_C', live });
      expect(items.map((i) => [i.itemId, i.payload.text])).toEqual([
        ['item_A', 'a!'],
        ['item_D', 'd streamed'],
      ]);
    });
  });
});
