import { existsSync, mkdirSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AppServerStore, createStoreDataSource, StoreError } from '../../../../src/persistence/sqlite';
import { APP_SERVER_MIGRATIONS } from '../../../../src/persistence/sqlite/migrations';
import { runSqliteMigrations } from '../../../../src/persistence/sqlite/run-migrations';
import { makeTempDir, type TempDir } from '../store-test-support';

interface NameRow {
  name: string;
}

describe('AppServerStore schema and connection settings', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => dir.remove());

  it('creates the parent directory, the four tables and the query indexes through migrations', async () => {
    const path = dir.file('nested/deeper/app-server.sqlite');
    const store = await AppServerStore.open(path);
    try {
      expect(existsSync(path)).toBe(true);
      const tables = (await store.query(
        `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`,
      )) as NameRow[];
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['conversation_messages', 'items', 'migrations', 'threads', 'turns']),
      );
      const indexes = (await store.query(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`,
      )) as Array<NameRow & { sql: string }>;
      const byName = Object.fromEntries(indexes.map((i) => [i.name, i.sql]));
      expect(byName.idx_threads_list_order).toContain('"updated_at" DESC, "thread_id" DESC');
      expect(byName.idx_items_thread_position).toMatch(/UNIQUE INDEX .*\("thread_id", "position"\)/);
      expect(byName.idx_turns_thread_started).toContain('("thread_id", "started_at")');
      expect(byName.idx_turns_status).toContain('("status")');
      const migrations = (await store.query(`SELECT name FROM migrations`)) as NameRow[];
      expect(byName.idx_turns_one_running_per_thread).toMatch(
        /UNIQUE INDEX .*\("thread_id"\) WHERE "status" = 'running'/,
      );
      expect(migrations.map((m) => m.name)).toEqual([
        'InitialSchema1780000000000',
        'TurnOwnershipHardening1780000000001',
        'ThreadForkOrigin1780000001400',
        'ContextCompaction1780000001500',
        'ThreadMcpServers1780000001600',
        'SandboxModes1780000001700',
      ]);
    } finally {
      await store.close();
    }
  });

  it('turns on WAL, a busy timeout and foreign keys for a file store', async () => {
    const store = await AppServerStore.open(dir.file('wal.sqlite'));
    try {
      expect(await store.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await store.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      expect(await store.query('PRAGMA busy_timeout')).toEqual([{ timeout: 5000 }]);
    } finally {
      await store.close();
    }
  });

  it('opens :memory: without WAL, and its data does not outlive the store', async () => {
    const store = await AppServerStore.open(':memory:');
    try {
      expect(await store.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'memory' }]);
      await store.threads.create({
        threadId: 'thread_m',
        agentKey: 'default',
        cwd: null,
        metadata: {},
        now: 1,
      });
      expect(await store.threads.get('thread_m')).not.toBeNull();
    } finally {
      await store.close();
    }
    const again = await AppServerStore.open(':memory:');
    try {
      expect(await again.threads.get('thread_m')).toBeNull();
    } finally {
      await again.close();
    }
  });

  it('keeps data across a close and reopen of the same file, running migrations only once', async () => {
    const path = dir.file('reopen.sqlite');
    const first = await AppServerStore.open(path);
    await first.threads.create({
      threadId: 'thread_keep',
      agentKey: 'default',
      cwd: './workspace',
      metadata: { title: 'Investigate repo' },
      now: 1780409999950,
    });
    await first.close();

    const second = await AppServerStore.open(path);
    try {
      expect(await second.threads.get('thread_keep')).toEqual({
        threadId: 'thread_keep',
        agentKey: 'default',
        cwd: './workspace',
        metadata: { title: 'Investigate repo' },
        createdAt: 1780409999950,
        updatedAt: 1780409999950,
        archivedAt: null,
        activeTurnId: null,
        forkedFrom: null,
        mcpServers: null,
        sandbox: null,
      });
      expect(await second.query('SELECT name FROM migrations')).toHaveLength(APP_SERVER_MIGRATIONS.length);
    } finally {
      await second.close();
    }
  });

  describe('a new file, migrated as one script', () => {
    type MasterRow = { type: string; name: string; tbl_name: string; sql: string | null };
    const schemaOf = async (query: (sql: string) => Promise<unknown>): Promise<unknown> => ({
      objects: ((await query(`SELECT type, name, tbl_name, sql FROM sqlite_master`)) as MasterRow[]).sort(
        (a, b) => a.name.localeCompare(b.name),
      ),
      migrations: await query('SELECT id, timestamp, name FROM migrations ORDER BY id'),
    });

    it('ends with the schema and migration rows TypeORM’s runner gives, and nothing pending', async () => {
      const byRunner = createStoreDataSource(dir.file('runner.sqlite'));
      await byRunner.initialize();
      const expected = await schemaOf((sql) => byRunner.query(sql));
      await byRunner.destroy();

      const path = dir.file('script.sqlite');
      const store = await AppServerStore.open(path);
      try {
        expect(await schemaOf((sql) => store.query(sql))).toEqual(expected);
      } finally {
        await store.close();
      }
      const reopened = createStoreDataSource(path);
      reopened.setOptions({ migrationsRun: false });
      await reopened.initialize();
      try {
        expect(await reopened.showMigrations()).toBe(false);
      } finally {
        await reopened.destroy();
      }
    });

    it('a script the file refuses (a statement ending in a comment) leaves the file to TypeORM’s runner', async () => {
      class Commented1780000009999 implements MigrationInterface {
        name = 'Commented1780000009999';
        async up(queryRunner: QueryRunner): Promise<void> {
          await queryRunner.query('CREATE TABLE "commented" ("x" integer) -- a note');
          await queryRunner.query('CREATE TABLE "after_comment" ("y" integer)');
        }
        async down(): Promise<void> {}
      }
      const dataSource = createStoreDataSource(dir.file('commented.sqlite'));
      dataSource.setOptions({
        migrationsRun: false,
        migrations: [...APP_SERVER_MIGRATIONS, Commented1780000009999],
      });
      await dataSource.initialize();
      try {
        await runSqliteMigrations(dataSource);
        const tables = (await dataSource.query(
          `SELECT name FROM sqlite_master WHERE name IN ('commented', 'after_comment', 'threads')`,
        )) as NameRow[];
        expect(tables.map((table) => table.name).sort()).toEqual(['after_comment', 'commented', 'threads']);
        expect(await dataSource.query('SELECT name FROM migrations')).toHaveLength(
          APP_SERVER_MIGRATIONS.length + 1,
        );
      } finally {
        await dataSource.destroy();
      }
    });

    it('two stores opening the same new file at once both open it, and it is migrated once', async () => {
      const path = dir.file('race.sqlite');
      const [first, second] = await Promise.all([AppServerStore.open(path), AppServerStore.open(path)]);
      try {
        expect(await first.query('SELECT name FROM migrations')).toHaveLength(APP_SERVER_MIGRATIONS.length);
        await first.threads.create({
          threadId: 'thread_a',
          agentKey: 'default',
          cwd: null,
          metadata: {},
          now: 1,
        });
        expect((await second.threads.get('thread_a'))?.threadId).toBe('thread_a');
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  });

  it('runs pending migrations as one transaction: an upgrade failing part-way leaves the file as it was', async () => {
    const path = dir.file('upgrade.sqlite');
    const current = await AppServerStore.open(path);
    // The file as the version before ContextCompaction left it, except that a column of the last
    // migration is already there, so ThreadMcpServers fails after ContextCompaction ran.
    for (const sql of [
      'ALTER TABLE "conversation_messages" DROP COLUMN "superseded_by_turn_id"',
      'ALTER TABLE "threads" DROP COLUMN "prompt_tokens"',
      'ALTER TABLE "threads" DROP COLUMN "prompt_messages_since"',
      `DELETE FROM migrations WHERE name IN ('ContextCompaction1780000001500', 'ThreadMcpServers1780000001600')`,
    ])
      await current.query(sql);
    await current.close();

    await expect(AppServerStore.open(path)).rejects.toThrow(/duplicate column name: mcp_servers_json/);

    const raw = new sqlite3.Database(path);
    const rows = (sql: string): Promise<NameRow[]> =>
      new Promise((resolve, reject) =>
        raw.all(sql, (error: Error | null, found: NameRow[]) => (error ? reject(error) : resolve(found))),
      );
    try {
      const columns = await rows(`SELECT name FROM pragma_table_info('threads')`);
      expect(columns.map((column) => column.name)).not.toContain('prompt_tokens');
      expect(columns.map((column) => column.name)).toContain('mcp_servers_json');
      const migrations = await rows('SELECT name FROM migrations ORDER BY id');
      expect(migrations.map((m) => m.name)).toEqual([
        'InitialSchema1780000000000',
        'TurnOwnershipHardening1780000000001',
        'ThreadForkOrigin1780000001400',
        // Not deleted above: its row stays while the failed upgrade rolls back.
        'SandboxModes1780000001700',
      ]);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('entities and the migration describe the same schema (no pending schema change)', async () => {
    const dataSource = createStoreDataSource(dir.file('drift.sqlite'));
    await dataSource.initialize();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('surfaces an unopenable path as a StoreError carrying the driver message', async () => {
    const path = dir.file('is-a-directory');
    mkdirSync(path);
    const opening = AppServerStore.open(path);
    await expect(opening).rejects.toBeInstanceOf(StoreError);
    await expect(opening).rejects.toThrow(/SQLITE_CANTOPEN/);
  });

  it('surfaces a failing statement as a StoreError with the cause message and keeps serving', async () => {
    const logged: string[] = [];
    const store = await AppServerStore.open(':memory:', { logSink: (line) => logged.push(line) });
    try {
      const thread = { threadId: 'thread_dup', agentKey: 'default', cwd: null, metadata: {}, now: 1 };
      await store.threads.create(thread);
      const duplicate = store.threads.create(thread);
      await expect(duplicate).rejects.toBeInstanceOf(StoreError);
      await expect(duplicate).rejects.toThrow(
        'SQLITE_CONSTRAINT: UNIQUE constraint failed: threads.thread_id',
      );
      expect(await store.threads.get('thread_dup')).not.toBeNull();
      expect(logged).toEqual([
        expect.stringMatching(/^\[typeorm\] query failed: INSERT INTO "threads".*UNIQUE constraint failed/),
      ]);
    } finally {
      await store.close();
    }
  });

  it('writes nothing to stdout while opening, working and closing; TypeORM logs go to stderr', async () => {
    const writes: unknown[] = [];
    const errWrites: string[] = [];
    const errSpy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      errWrites.push(String(chunk));
      return true;
    });
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      writes.push(chunk);
      return true;
    });
    try {
      const store = await AppServerStore.open(dir.file('quiet.sqlite'));
      await store.threads.create({
        threadId: 'thread_q',
        agentKey: 'default',
        cwd: null,
        metadata: {},
        now: 1,
      });
      await store.threads
        .create({ threadId: 'thread_q', agentKey: 'default', cwd: null, metadata: {}, now: 1 })
        .catch(() => undefined);
      await store.close();
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
    }
    expect(writes).toEqual([]);
    expect(errWrites.join('')).toContain('[typeorm] query failed');
  });

  it('close is idempotent and waits for queued work', async () => {
    const store = await AppServerStore.open(':memory:');
    const pending = store.threads.create({
      threadId: 'thread_w',
      agentKey: 'a',
      cwd: null,
      metadata: {},
      now: 1,
    });
    await store.close();
    await expect(pending).resolves.toMatchObject({ threadId: 'thread_w' });
    await store.close();
    expect(store.isOpen).toBe(false);
  });
});
