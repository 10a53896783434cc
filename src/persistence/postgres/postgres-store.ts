/**
 * The PostgreSQL App Server store (postgres.md §1): connects, migrates under the advisory lock,
 * runs restart recovery, then the shared TypeORM store. Every failure message is scrubbed of the
 * password and names the store by its URL without it.
 */
import type { DataSource } from 'typeorm';
import { type StoreBackend, type StoreOpenOptions, TypeOrmAppServerStore } from '../typeorm/app-server-store';
import { StoreError } from '../typeorm/store-errors';
import { causeMessage } from '../../runtime/cause-message';
import {
  createPostgresDataSource,
  migrateUnderAdvisoryLock,
  passwordOf,
  type PostgresDataSourceOptions,
  type PostgresStoreTarget,
} from './data-source';
import { PoolRowReader } from './pool-row-reader';
import { describePostgresStore, parsePostgresStoreUrl, redactSecret } from './store-url';

export interface PostgresStoreOptions extends PostgresDataSourceOptions, StoreOpenOptions {}

export async function openPostgresStore(
  target: PostgresStoreTarget,
  options: PostgresStoreOptions = {},
): Promise<TypeOrmAppServerStore> {
  let secret = '';
  let dataSource: DataSource | undefined;
  try {
    secret = passwordOf(target);
    dataSource = createPostgresDataSource(target, options);
    await dataSource.initialize();
    await migrateUnderAdvisoryLock(dataSource);
    const backend: StoreBackend = {
      location: locationOf(target),
      dataSource,
      reader: new PoolRowReader(dataSource),
      beginSql: 'BEGIN',
      beforeDestroy: async () => undefined,
    };
    return await TypeOrmAppServerStore.openBackend(backend, options);
  } catch (error) {
    if (dataSource?.isInitialized) await dataSource.destroy().catch(() => undefined);
    throw new StoreError(redactSecret(failureMessage(error), secret));
  }
}

function locationOf(target: PostgresStoreTarget): string {
  if (typeof target === 'string') return describePostgresStore(parsePostgresStoreUrl(target));
  const host = typeof target.host === 'string' ? target.host : 'localhost';
  return `postgres://${target.username ?? ''}@${host}:${target.port ?? 5432}/${String(target.database ?? '')}`;
}

/** pg reports a refused connection to every address of a name (localhost) as an AggregateError without a message of its own. */
function failureMessage(error: unknown): string {
  const message = causeMessage(error);
  if (message !== '' || !(error instanceof AggregateError) || error.errors.length === 0) return message;
  return error.errors.map((inner) => causeMessage(inner)).join('; ');
}
