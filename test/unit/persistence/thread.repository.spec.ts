import { describeEachStore } from '../../support/store-drivers';
import {
  TypeOrmAppServerStore,
  InvalidThreadCursorError,
  type StoredThread,
  toAppThread,
} from '../../../src/persistence/sqlite';
import { encodeThreadCursor } from '../../../src/persistence/typeorm/thread-cursor';

describeEachStore('ThreadRepository', (driver) => {
  let store: TypeOrmAppServerStore;

  beforeEach(async () => {
    store = await driver().open(await driver().newLocation());
  });

  afterEach(async () => {
    await store.close();
  });

  const create = (
    threadId: string,
    now: number,
    extra: Partial<{ cwd: string | null; metadata: Record<string, unknown> }> = {},
  ) =>
    store.threads.create({
      threadId,
      agentKey: 'default',
      cwd: extra.cwd ?? null,
      metadata: extra.metadata ?? {},
      now,
    });

  const ids = (threads: StoredThread[]) => threads.map((t) => t.threadId);

  it('creates a thread with createdAt = updatedAt = now and reads it back verbatim', async () => {
    const created = await store.threads.create({
      threadId: 'thread_a',
      agentKey: '',
      cwd: './relative',
      metadata: { title: 'x', nested: { list: [1, null, 'y'] } },
      now: 1780409999950,
    });
    const expected: StoredThread = {
      threadId: 'thread_a',
      agentKey: '',
      cwd: './relative',
      metadata: { title: 'x', nested: { list: [1, null, 'y'] } },
      createdAt: 1780409999950,
      updatedAt: 1780409999950,
      archivedAt: null,
      activeTurnId: null,
      forkedFrom: null,
      mcpServers: null,
      sandbox: null,
    };
    expect(created).toEqual(expected);
    expect(await store.threads.get('thread_a')).toEqual(expected);
    expect(await store.threads.get('thread_missing')).toBeNull();
    expect(toAppThread(expected, 'idle')).toEqual({
      threadId: 'thread_a',
      agentKey: '',
      cwd: './relative',
      status: 'idle',
      metadata: { title: 'x', nested: { list: [1, null, 'y'] } },
      createdAt: 1780409999950,
      updatedAt: 1780409999950,
      archivedAt: null,
      forkedFrom: null,
    });
  });

  it('archives (archivedAt = updatedAt = now, re-archive refreshes both) and returns null for unknown threads', async () => {
    await create('thread_a', 10);
    expect(await store.threads.archive('thread_a', 20)).toMatchObject({ archivedAt: 20, updatedAt: 20 });
    expect(await store.threads.archive('thread_a', 30)).toMatchObject({ archivedAt: 30, updatedAt: 30 });
    expect(await store.threads.archive('thread_missing', 40)).toBeNull();
  });

  it('sets and clears the active turn, touching updatedAt each time', async () => {
    await create('thread_a', 10);
    await store.turns.createRunning({
      turnId: 'turn_1',
      threadId: 'thread_a',
      runId: 'run_1',
      input: [],
      startedAt: 11,
    });
    expect(await store.threads.setActiveTurn('thread_a', 'turn_1', 12)).toMatchObject({
      activeTurnId: 'turn_1',
      updatedAt: 12,
    });
    expect(await store.threads.clearActiveTurn('thread_a', 13)).toMatchObject({
      activeTurnId: null,
      updatedAt: 13,
    });
    expect(await store.threads.touch('thread_a', 14)).toMatchObject({ updatedAt: 14, createdAt: 10 });
  });

  describe('list', () => {
    beforeEach(async () => {
      // updatedAt ties on 200 are broken by threadId descending.
      await create('thread_1', 100);
      await create('thread_2', 200);
      await create('thread_3', 200);
      await create('thread_4', 300);
      await create('thread_5', 50);
      await store.threads.archive('thread_5', 400);
      await create('thread_6', 150);
      await store.threads.archive('thread_6', 250);
    });

    it.each([
      ['defaults: non-archived only', {}, ['thread_4', 'thread_3', 'thread_2', 'thread_1']],
      [
        'includeArchived',
        { includeArchived: true },
        ['thread_5', 'thread_4', 'thread_6', 'thread_3', 'thread_2', 'thread_1'],
      ],
      ['archived: true implies include', { archived: true }, ['thread_5', 'thread_6']],
      ['archived: false', { archived: false }, ['thread_4', 'thread_3', 'thread_2', 'thread_1']],
      [
        'archived: false wins over includeArchived',
        { archived: false, includeArchived: true },
        ['thread_4', 'thread_3', 'thread_2', 'thread_1'],
      ],
      [
        'archived: true with includeArchived: false',
        { archived: true, includeArchived: false },
        ['thread_5', 'thread_6'],
      ],
    ])('%s', async (_name, query, expected) => {
      const page = await store.threads.list(query);
      expect(ids(page.threads)).toEqual(expected);
      expect(page.nextCursor).toBeNull();
    });

    it('pages with an opaque cursor; nextCursor is non-null iff more matching threads exist', async () => {
      const first = await store.threads.list({ includeArchived: true, limit: 2 });
      expect(ids(first.threads)).toEqual(['thread_5', 'thread_4']);
      expect(first.nextCursor).toEqual(expect.any(String));

      const second = await store.threads.list({ includeArchived: true, limit: 2, cursor: first.nextCursor! });
      expect(ids(second.threads)).toEqual(['thread_6', 'thread_3']);

      const third = await store.threads.list({ includeArchived: true, limit: 2, cursor: second.nextCursor! });
      expect(ids(third.threads)).toEqual(['thread_2', 'thread_1']);
      expect(third.nextCursor).toBeNull();
    });

    it('continues strictly after the cursor thread inside an updatedAt tie', async () => {
      const first = await store.threads.list({ limit: 2 });
      expect(ids(first.threads)).toEqual(['thread_4', 'thread_3']);
      const rest = await store.threads.list({ limit: 10, cursor: first.nextCursor! });
      expect(ids(rest.threads)).toEqual(['thread_2', 'thread_1']);
      expect(rest.nextCursor).toBeNull();
    });

    it('returns an exact last page without a cursor', async () => {
      const page = await store.threads.list({ limit: 4 });
      expect(page.threads).toHaveLength(4);
      expect(page.nextCursor).toBeNull();
    });

    it('defaults limit to 50', async () => {
      for (let i = 0; i < 55; i += 1) await create(`thread_bulk_${String(i).padStart(2, '0')}`, 1_000 + i);
      const page = await store.threads.list();
      expect(page.threads).toHaveLength(50);
      expect(page.nextCursor).not.toBeNull();
    });

    it.each([
      ['empty string', ''],
      ['not base64url', 'not a cursor!'],
      ['base64url of non-JSON', Buffer.from('hello').toString('base64url')],
      ['JSON of the wrong shape', Buffer.from(JSON.stringify({ a: 1 })).toString('base64url')],
      ['non-integer updatedAt', Buffer.from(JSON.stringify({ u: 1.5, t: 'thread_1' })).toString('base64url')],
      [
        'non-canonical spelling',
        Buffer.from(JSON.stringify({ t: 'thread_1', u: 100 })).toString('base64url'),
      ],
      [
        'a well-formed cursor naming no existing thread',
        encodeThreadCursor({ updatedAt: 100, threadId: 'thread_gone' }),
      ],
    ])('rejects a cursor that is %s as `is invalid`', async (_name, cursor) => {
      const listing = store.threads.list({ cursor });
      await expect(listing).rejects.toBeInstanceOf(InvalidThreadCursorError);
      await expect(listing).rejects.toThrow('is invalid');
    });

    it('accepts a cursor whose thread changed since (continues after the encoded position)', async () => {
      const first = await store.threads.list({ limit: 1 });
      expect(ids(first.threads)).toEqual(['thread_4']);
      await store.threads.touch('thread_4', 10);
      const rest = await store.threads.list({ cursor: first.nextCursor! });
      expect(ids(rest.threads)).toEqual(['thread_3', 'thread_2', 'thread_1', 'thread_4']);
    });
  });
});
