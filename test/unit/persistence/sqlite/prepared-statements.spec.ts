/**
 * The prepared-statement read path: logged and failing like TypeORM's queries, never holding a
 * WAL read snapshot after a read, and finalized before the connection closes.
 */
import { Database } from 'sqlite3';
import { AppServerStore } from '../../../../src/persistence/sqlite';
import { makeTempDir, type TempDir } from '../store-test-support';

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

function allRows<Row>(db: Database, sql: string): Promise<Row[]> {
  return new Promise((resolve, reject) =>
    db.all<Row>(sql, (error, rows) => (error ? reject(error) : resolve(rows))),
  );
}

describe('prepared reads', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => dir.remove());

  it('logs each read as a TypeORM query on stderr lines and fails with the driver message', async () => {
    const lines: string[] = [];
    const store = await AppServerStore.open(':memory:', {
      logLevels: ['query', 'error'],
      logSink: (line) => lines.push(line),
    });
    try {
      lines.length = 0;
      expect(await store.threads.get('thread_missing')).toBeNull();
      expect(lines).toEqual([
        // The statement only: parameters carry user input and are never logged (issue 45 item 5).
        expect.stringMatching(/^\[typeorm\] query: .*FROM "threads" WHERE .*\n$/s),
      ]);
      expect(lines.join('')).not.toContain('thread_missing');

      await store.query('ALTER TABLE "turns" RENAME TO "turns_away"');
      lines.length = 0;
      await expect(store.turns.listByThread('thread_t')).rejects.toThrow(
        /^SQLITE_ERROR: no such table: turns$/,
      );
      expect(lines[lines.length - 1]).toMatch(
        /^\[typeorm\] query failed: .* -- SQLITE_ERROR: no such table: turns\n$/s,
      );

      // The cached statement recovers once the table is back.
      await store.query('ALTER TABLE "turns_away" RENAME TO "turns"');
      expect(await store.turns.listByThread('thread_t')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('leaves no read snapshot open after a read, and closes cleanly afterwards', async () => {
    const path = dir.file('prepared.sqlite');
    const store = await AppServerStore.open(path);
    const other = new Database(path);
    try {
      await store.threads.create({
        threadId: 'thread_t',
        agentKey: 'default',
        cwd: null,
        metadata: {},
        now: 1,
      });
      await store.readThread('thread_t');
      await store.threads.get('thread_t');
      await store.items.read('thread_t', { afterItemId: 'item_none', limit: 1 });
      await allRows(
        other,
        `INSERT INTO "threads" VALUES ('thread_o', 'default', NULL, '{}', 2, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
      );
      // A statement still holding a snapshot would make a truncating checkpoint report busy = 1.
      expect(await allRows<CheckpointRow>(other, 'PRAGMA wal_checkpoint(TRUNCATE)')).toEqual([
        { busy: 0, log: 0, checkpointed: 0 },
      ]);
      expect(await store.threads.get('thread_o')).toMatchObject({ threadId: 'thread_o' });
    } finally {
      await new Promise((resolve) => other.close(resolve));
      // sqlite refuses to close a connection with unfinalized statements (SQLITE_BUSY).
      await store.close();
    }
    expect(store.isOpen).toBe(false);
    await expect(store.threads.get('thread_t')).rejects.toThrow(
      'Connection with sqlite database is not established. Check connection configuration.',
    );
  });
});
