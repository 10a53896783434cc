/**
 * What only the PostgreSQL store has (docs/spec/postgres.md §1, §2): the URL, the password kept out of every
 * message, migrations under the advisory lock, and the one-active-turn rule enforced by the
 * database for stores that share nothing but the database.
 */
import { openPostgresStore, parsePostgresStoreUrl, redactSecret } from '../../../../src/persistence/postgres';
import type { ClusterMessage } from '../../../../src/persistence/postgres/cluster/cluster-channel';
import { ThreadHasActiveTurnError } from '../../../../src/core/store/turn-conflict';
import { TEST_POSTGRES_PASSWORD } from '../../../support/postgres-cluster';
import {
  createPostgresDatabase,
  dropPostgresDatabase,
  postgresDatabaseUrl,
} from '../../../support/store-drivers';

describe('PostgreSQL store URL (docs/spec/postgres.md §1)', () => {
  it('percent-decodes user, password and database, defaults the port, maps sslmode', () => {
    expect(
      parsePostgresStoreUrl('postgresql://us%40er:p%3Aw%2Fd@db.example:6543/my%20db?sslmode=require'),
    ).toEqual({
      host: 'db.example',
      port: 6543,
      username: 'us@er',
      password: 'p:w/d',
      database: 'my db',
      ssl: { rejectUnauthorized: false },
    });
    expect(parsePostgresStoreUrl('postgres://u@h/d')).toMatchObject({ port: 5432, password: '', ssl: false });
    expect(parsePostgresStoreUrl('postgres://u@h/d?sslmode=verify-full').ssl).toBe(true);
    expect(() => parsePostgresStoreUrl('postgres://u:pw@h/d?sslmode=bogus')).toThrow(
      'unsupported sslmode: bogus',
    );
  });

  it('redacts the password as given and percent-encoded', () => {
    expect(redactSecret('a p:w/d b p%3Aw%2Fd c', 'p:w/d')).toBe('a *** b *** c');
  });
});

describe('PostgreSQL store on a real server', () => {
  const databases: string[] = [];
  const fresh = async (): Promise<string> => {
    const name = await createPostgresDatabase();
    databases.push(name);
    return postgresDatabaseUrl(name);
  };

  afterAll(async () => {
    for (const name of databases) await dropPostgresDatabase(name);
  });

  it('never shows the password: not in logs of a working store, not in a failure', async () => {
    const url = await fresh();
    const logged: string[] = [];
    const store = await openPostgresStore(url, {
      logLevels: ['query', 'schema', 'error', 'warn', 'info', 'log', 'migration'],
      logSink: (line) => logged.push(line),
    });
    await store.threads.create({ threadId: 'thread_p', agentKey: 'a', cwd: null, metadata: {}, now: 1 });
    await store.close();
    expect(logged.length).toBeGreaterThan(0);
    expect(store.path).not.toContain(encodeURIComponent(TEST_POSTGRES_PASSWORD));
    const wrong = url.replace(encodeURIComponent(TEST_POSTGRES_PASSWORD), encodeURIComponent('wrong:pw/1'));
    const failure = openPostgresStore(wrong, { logSink: (line) => logged.push(line) });
    await expect(failure).rejects.toThrow('password authentication failed for user "postgres"');
    const refused = openPostgresStore('postgres://u:Hunter2%2F@127.0.0.1:1/x');
    await expect(refused).rejects.toThrow(/ECONNREFUSED/);
    await refused.catch((error: Error) => expect(error.message).not.toMatch(/Hunter2/));
    for (const line of logged) {
      expect(line).not.toContain(TEST_POSTGRES_PASSWORD);
      expect(line).not.toContain(encodeURIComponent(TEST_POSTGRES_PASSWORD));
    }
  });

  it('migrates once when instances start together (advisory lock), one history of its own', async () => {
    const url = await fresh();
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore(url)));
    try {
      expect(await stores[0].query('SELECT name FROM migrations ORDER BY id')).toEqual([
        { name: 'PostgresSchema1790000000000' },
        { name: 'Instances1790000000100' },
        { name: 'InstanceOwnerToken1790000000200' },
        { name: 'SandboxModes1790000000700' },
      ]);
      expect(
        await stores[0].query(
          `SELECT indexdef FROM pg_indexes WHERE indexname = 'idx_turns_one_running_per_thread'`,
        ),
      ).toEqual([
        {
          indexdef: expect.stringContaining(`WHERE (status = 'running'::text)`) as unknown,
        },
      ]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('instances whose processes share a start token (spawned in one clock tick) are distinct cluster members', async () => {
    const url = await fresh();
    // Two stores in one process have the same process start token, as two processes spawned in
    // the same 10 ms clock tick do. Before: one instance id for both, so a message from one was
    // dropped by the other as its own, and both kept one heartbeat row fresh.
    const stores = await Promise.all([1, 2].map(() => openPostgresStore(url)));
    const failures: unknown[] = [];
    try {
      const [a, b] = await Promise.all(stores.map((store) => store.cluster((error) => failures.push(error))));
      expect(a.instanceId).not.toBe(b.instanceId);
      expect(await stores[0].query('SELECT count(*)::int AS n FROM instances')).toEqual([{ n: 2 }]);
      const received = new Promise<ClusterMessage>((resolve) => b.channel.onMessage(resolve));
      await a.channel.send({ kind: 'probe' });
      await expect(received).resolves.toMatchObject({ kind: 'probe', from: a.instanceId });
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
    expect(failures).toEqual([]);
  });

  it('lets exactly one of 20 concurrent beginTurn calls from separate instances win (§8.2)', async () => {
    const url = await fresh();
    const stores = await Promise.all(
      [1, 2, 3].map(() => openPostgresStore(url, { logSink: () => undefined })),
    );
    try {
      await stores[0].threads.create({
        threadId: 'thread_c',
        agentKey: 'a',
        cwd: null,
        metadata: {},
        now: 1,
      });
      const attempts = Array.from({ length: 20 }, (_, index) =>
        stores[index % 3].beginTurn({
          turnId: `turn_${index}`,
          threadId: 'thread_c',
          runId: null,
          input: [],
          startedAt: 10,
        }),
      );
      const outcomes = await Promise.allSettled(attempts);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter(
        (outcome) => outcome.status === 'rejected' && outcome.reason instanceof ThreadHasActiveTurnError,
      );
      expect(won).toHaveLength(1);
      expect(refused).toHaveLength(19);
      expect(await stores[1].query(`SELECT count(*)::int AS n FROM turns WHERE status = 'running'`)).toEqual([
        { n: 1 },
      ]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
