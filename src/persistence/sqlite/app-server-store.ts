/**
 * The SQLite App Server store (docs/spec/protocol.md §8.11): opens the file (migrations, then restart
 * recovery) and runs the shared TypeORM store on it, hot reads as cached prepared statements.
 */
import type { DataSource } from 'typeorm';
import { createStoreDataSource, type StoreDataSourceOptions } from './data-source';
import { PreparedStatements } from './prepared-statements';
import { runSqliteMigrations } from './run-migrations';
import { type StoreBackend, type StoreOpenOptions, TypeOrmAppServerStore } from '../typeorm/app-server-store';
import { StoreError } from '../typeorm/store-errors';
import { StoreExecutor } from '../typeorm/store-executor';
export type { TurnFinish } from '../typeorm/app-server-store';

/**
 * BEGIN IMMEDIATE takes the write lock up front (waiting up to the busy timeout), so another
 * process on the same file cannot make a transaction fail halfway with SQLITE_BUSY.
 */
const SQLITE_BEGIN = 'BEGIN IMMEDIATE';

export interface AppServerStoreOptions extends StoreDataSourceOptions, StoreOpenOptions {}

/** Initializes `dataSource` and runs its migrations (run-migrations.ts); closes it again if they fail. */
async function openMigrated(dataSource: DataSource): Promise<DataSource> {
  dataSource.setOptions({ migrationsRun: false });
  await dataSource.initialize();
  try {
    await runSqliteMigrations(dataSource);
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}

export class AppServerStore extends TypeOrmAppServerStore {
  /** Opens `path` (a file, created with its directory, or `:memory:`), migrates, then recovers turns. */
  static async open(path: string, options: AppServerStoreOptions = {}): Promise<AppServerStore> {
    let dataSource: DataSource;
    try {
      dataSource = await openMigrated(createStoreDataSource(path, options));
    } catch (error) {
      throw StoreError.from(error);
    }
    const statements = new PreparedStatements(dataSource);
    const backend: StoreBackend = {
      location: path,
      dataSource,
      reader: statements,
      beginSql: SQLITE_BEGIN,
      beforeDestroy: () => statements.finalizeAll(),
    };
    const executor = new StoreExecutor(dataSource, statements, SQLITE_BEGIN);
    const recovered = await TypeOrmAppServerStore.recover(backend, executor, options);
    return new AppServerStore(backend, executor, recovered);
  }
}
