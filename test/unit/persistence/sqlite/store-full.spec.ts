/**
 * Issue 12 item 2: a full database (SQLITE_FULL, simulated with PRAGMA max_page_count) fails the
 * write that needed it, leaves the connection out of any transaction, and once space is back the
 * store persists again — across a reopen, so nothing was left in an uncommitted transaction.
 */
import { AppServerStore, StoreError } from '../../../../src/persistence/sqlite';
import { makeTempDir, type TempDir } from '../store-test-support';

const BIG_TEXT = 'x'.repeat(256 * 1024);

async function pageCount(store: AppServerStore): Promise<number> {
  const [row] = (await store.query('PRAGMA page_count')) as { page_count: number }[];
  return row.page_count;
}

function newThread(store: AppServerStore, threadId: string): Promise<unknown> {
  return store.threads.create({ threadId, agentKey: 'default', cwd: null, metadata: {}, now: 100 });
}

describe('store on a full disk (SQLITE_FULL)', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => dir.remove());

  it('keeps a deferred turn failure until a later turn transaction can store it', async () => {
    const path = dir.file('deferred.sqlite');
    const store = await AppServerStore.open(path);
    await newThread(store, 'thr_a');
    await newThread(store, 'thr_b');
    await store.beginTurn({ turnId: 'turn_a', threadId: 'thr_a', runId: null, input: [], startedAt: 200 });
    await store.query('PRAGMA wal_checkpoint(TRUNCATE)');
    await store.query(`PRAGMA max_page_count = ${await pageCount(store)}`);

    const failure = { error: `store error: ${'e'.repeat(64 * 1024)}` };
    const finish = {
      threadId: 'thr_a',
      turnId: 'turn_a',
      completion: { status: 'failed' as const, completedAt: 300, result: failure },
      messages: [],
      now: 300,
    };
    await expect(store.deferTurnFinish(finish)).rejects.toThrow(/full/i);
    await expect(
      store.beginTurn({ turnId: 'turn_b', threadId: 'thr_b', runId: null, input: [], startedAt: 310 }),
    ).rejects.toThrow(/full/i);
    expect((await store.turns.get('turn_a'))?.status).toBe('running');

    await store.query('PRAGMA max_page_count = 1073741823');
    await store.beginTurn({ turnId: 'turn_b', threadId: 'thr_b', runId: null, input: [], startedAt: 320 });
    expect(await store.turns.get('turn_a')).toMatchObject({ status: 'failed', result: failure });
    expect((await store.threads.get('thr_a'))?.activeTurnId).toBeNull();
    await store.close();
  });

  it('fails the transaction that could not be stored, then commits again once space is back', async () => {
    const path = dir.file('store.sqlite');
    const store = await AppServerStore.open(path);
    await newThread(store, 'thr_before');
    // Fold the WAL into the main file so page_count is the real size, then freeze it.
    await store.query('PRAGMA wal_checkpoint(TRUNCATE)');
    await store.query(`PRAGMA max_page_count = ${await pageCount(store)}`);

    const bigTurn = store.beginTurn({
      turnId: 'turn_big',
      threadId: 'thr_before',
      runId: null,
      input: [{ type: 'text', text: BIG_TEXT }],
      startedAt: 200,
    });
    await expect(bigTurn).rejects.toBeInstanceOf(StoreError);
    await expect(bigTurn).rejects.toThrow(/full/i);
    const big = store.conversations.append('thr_before', 'turn_missing', [
      { role: 'user', content: BIG_TEXT },
    ]);
    await expect(big).rejects.toThrow(/full|constraint/i);

    // Space is back: every later write is committed, not parked inside a dangling transaction.
    await store.query('PRAGMA max_page_count = 1073741823');
    await newThread(store, 'thr_after');
    await store.beginTurn({
      turnId: 'turn_after',
      threadId: 'thr_after',
      runId: null,
      input: [{ type: 'text', text: BIG_TEXT }],
      startedAt: 300,
    });
    await store.close();

    const reopened = await AppServerStore.open(path);
    try {
      expect(await reopened.turns.get('turn_big')).toBeNull();
      expect(await reopened.threads.get('thr_after')).not.toBeNull();
      expect((await reopened.turns.get('turn_after'))?.input).toEqual([{ type: 'text', text: BIG_TEXT }]);
      expect((await reopened.threads.get('thr_before'))?.activeTurnId).toBeNull();
    } finally {
      await reopened.close();
    }
  });
});
