/**
 * The App Server's TypeORM DataSource on the `postgres` driver (pg), migrated at startup inside a
 * PostgreSQL advisory lock, so instances starting together run the migrations once (docs/spec/postgres.md §1).
 */
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_SERVER_ENTITIES } from '../typeorm/entities';
import { StderrTypeOrmLogger, type StderrSink, type TypeOrmLogLevel } from '../typeorm/stderr-typeorm-logger';
import { POSTGRES_MIGRATIONS } from './migrations';
import { parsePostgresStoreUrl, redactSecret } from './store-url';

/** A connection attempt gives up after this, well inside the 30 s startup bound of docs/spec/postgres.md §1. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** pg_advisory_lock key of the App Server's migrations (any constant; shared by every instance). */
const MIGRATION_LOCK_KEY = 7_261_706_100;

/**
 * TypeORM's postgres DataSourceOptions, taken from the package root: its deep path
 * (`typeorm/driver/postgres/...`) has no `types` export condition, so `moduleResolution: bundler`
 * projects cannot resolve our declarations if they name it.
 */
export type PostgresConnectionOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/** The connection part of a TypeORM postgres configuration (what an embedder may pass). */
export type PostgresStoreTarget = string | PostgresConnectionOptions;

export interface PostgresDataSourceOptions {
  /** Default `['error', 'warn']`; everything goes to stderr. */
  logLevels?: readonly TypeOrmLogLevel[];
  logSink?: StderrSink;
  connectTimeoutMs?: number;
}

/** The password, so that it can be kept out of every message (never logged itself). */
export function passwordOf(target: PostgresStoreTarget): string {
  if (typeof target === 'string') return parsePostgresStoreUrl(target).password;
  return typeof target.password === 'string' ? target.password : '';
}

export function createPostgresDataSource(
  target: PostgresStoreTarget,
  options: PostgresDataSourceOptions = {},
): DataSource {
  const connection: PostgresConnectionOptions =
    typeof target === 'string' ? { type: 'postgres', ...parsePostgresStoreUrl(target) } : target;
  const secret = passwordOf(target);
  const sink = options.logSink ?? ((line: string) => void process.stderr.write(line));
  return new DataSource({
    connectTimeoutMS: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...connection,
    // Timestamps are bigint columns; pg hands int8 back as strings unless told otherwise.
    parseInt8: true,
    entities: APP_SERVER_ENTITIES,
    migrations: POSTGRES_MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new StderrTypeOrmLogger(options.logLevels, (line) => sink(redactSecret(line, secret))),
  });
}

/** Runs pending migrations while holding the advisory lock on a connection of its own. */
export async function migrateUnderAdvisoryLock(dataSource: DataSource): Promise<void> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lock.release();
  }
}
