/**
 * Both store drivers behind one interface, so a persistence suite is written once and runs on
 * SQLite and on PostgreSQL (docs/spec/postgres.md §1: "the whole existing test suite that touches the store
 * runs against both"). PostgreSQL needs the server of postgres.global-setup.ts (VV_TEST_POSTGRES_URL).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openAppServerStore, type OpenStoreOptions } from '../../src/persistence/open-app-server-store';
import type { TypeOrmAppServerStore } from '../../src/persistence/typeorm/app-server-store';
import { ensurePostgresBinaries } from './postgres-cluster';

export type StoreDriverName = 'sqlite' | 'postgres';
export const STORE_DRIVERS: readonly StoreDriverName[] = ['sqlite', 'postgres'];

export interface StoreDriver {
  readonly name: StoreDriverName;
  /**
   * A location holding no data yet: a file in a fresh temp dir (SQLite), or a database of its
   * own (PostgreSQL). Stores opened on earlier locations stay valid.
   */
  newLocation(): Promise<string>;
  open(location: string, options?: OpenStoreOptions): Promise<TypeOrmAppServerStore>;
  /** Removes every location this driver made. */
  dispose(): Promise<void>;
}

export function postgresAdminUrl(): string {
  const url = process.env.VV_TEST_POSTGRES_URL;
  if (!url) throw new Error('VV_TEST_POSTGRES_URL is not set: the PostgreSQL globalSetup did not run');
  return url;
}

/** The admin URL pointed at another database. */
export function postgresDatabaseUrl(database: string): string {
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

let databaseCounter = 0;

function newDatabaseName(): string {
  databaseCounter += 1;
  return `vv_${process.pid}_${databaseCounter}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Creates an empty database on the test server and returns its name. */
export async function createPostgresDatabase(): Promise<string> {
  const name = newDatabaseName();
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  return name;
}

/** createPostgresDatabase for synchronous callers (e2e command lines), through the server's psql. */
export function createPostgresDatabaseSync(): string {
  const name = newDatabaseName();
  execFileSync(
    join(ensurePostgresBinaries(), 'psql'),
    [postgresAdminUrl(), '-qc', `CREATE DATABASE "${name}"`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return name;
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

export function createStoreDriver(name: StoreDriverName): StoreDriver {
  const made: string[] = [];
  const open = (location: string, options: OpenStoreOptions = {}) =>
    openAppServerStore(location, { logSink: () => undefined, ...options });
  if (name === 'sqlite') {
    return {
      name,
      newLocation: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'vv-store-'));
        made.push(dir);
        return join(dir, 'app-server.sqlite');
      },
      open,
      dispose: async () => {
        for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  return {
    name,
    newLocation: async () => {
      const database = await createPostgresDatabase();
      made.push(database);
      return postgresDatabaseUrl(database);
    },
    open,
    dispose: async () => {
      for (const database of made.splice(0)) await dropPostgresDatabase(database);
    },
  };
}

/**
 * `describe(title)` once per driver (`title [sqlite]`, `title [postgres]`); `driver()` is that
 * describe's driver, its locations removed after the block.
 */
export function describeEachStore(title: string, body: (driver: () => StoreDriver) => void): void {
  describe.each(STORE_DRIVERS)(`${title} [%s]`, (name) => {
    const driver = createStoreDriver(name);
    afterAll(() => driver.dispose());
    body(() => driver);
  });
}
