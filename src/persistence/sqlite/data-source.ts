/** The App Server's TypeORM DataSource on sqlite3 (docs/spec/protocol.md §8.11). */
import { dirname, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { makeDirectorySync } from '../../runtime/make-directory';
import { APP_SERVER_ENTITIES } from '../typeorm/entities';
import { APP_SERVER_MIGRATIONS } from './migrations';
import { sqlite3Driver } from './sqlite3-driver';
import { StderrTypeOrmLogger, type StderrSink, type TypeOrmLogLevel } from '../typeorm/stderr-typeorm-logger';

export const IN_MEMORY_STORE_PATH = ':memory:';
/** How long a statement waits for another process's write lock before SQLITE_BUSY. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export interface StoreDataSourceOptions {
  busyTimeoutMs?: number;
  /** Default `['error', 'warn']`; everything goes to stderr. */
  logLevels?: readonly TypeOrmLogLevel[];
  /** Where log lines go; default process.stderr. */
  logSink?: StderrSink;
}

export function isInMemoryStorePath(path: string): boolean {
  return path === IN_MEMORY_STORE_PATH;
}

/** Builds (does not initialize) the DataSource; creates the file's parent directory. */
export function createStoreDataSource(path: string, options: StoreDataSourceOptions = {}): DataSource {
  const inMemory = isInMemoryStorePath(path);
  const database = inMemory ? path : resolve(path);
  if (!inMemory) makeDirectorySync(dirname(database));
  const busyTimeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  return new DataSource({
    type: 'sqlite',
    // WAL is meaningless for an in-memory database.
    driver: sqlite3Driver({ busyTimeoutMs: busyTimeout, wal: !inMemory }),
    database,
    enableWAL: !inMemory,
    busyTimeout,
    entities: APP_SERVER_ENTITIES,
    migrations: APP_SERVER_MIGRATIONS,
    migrationsRun: true,
    // One transaction for whatever is pending: an upgrade that fails part-way leaves the file as the
    // previous version had it, and a new file costs one commit instead of one per migration.
    migrationsTransactionMode: 'all',
    synchronize: false,
    logger: new StderrTypeOrmLogger(options.logLevels, options.logSink),
  });
}
