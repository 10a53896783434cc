/**
 * The PostgreSQL App Server store (docs/spec/postgres.md §1): connects, migrates under the advisory lock,
 * runs restart recovery, then the shared TypeORM store. Every failure message is scrubbed of the
 * password and names the store by its URL without it.
 */
import type { DataSource } from 'typeorm';
import { type StoreBackend, type StoreOpenOptions, TypeOrmAppServerStore } from '../typeorm/app-server-store';
import { StoreError } from '../typeorm/store-errors';
import { StoreExecutor } from '../typeorm/store-executor';
import type { RecoveredTurn } from '../typeorm/restart-recovery';
import { PostgresCluster } from './cluster/postgres-cluster';
import type { ClusterTimings } from './cluster/instance-heartbeat';
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

/** The store plus, once started, the cluster of instances sharing its database (docs/spec/postgres.md §2). */
export class PostgresAppServerStore extends TypeOrmAppServerStore {
  private clusterStart: Promise<PostgresCluster> | undefined;

  constructor(
    backend: StoreBackend,
    executor: StoreExecutor,
    recovered: readonly RecoveredTurn[],
    private readonly dataSource: DataSource,
  ) {
    super(backend, executor, recovered);
  }

  /** Joins the cluster (idempotent): LISTEN, heartbeat row. Stopped by close(). */
  cluster(onError: (error: unknown) => void, timings?: ClusterTimings): Promise<PostgresCluster> {
    this.clusterStart ??= PostgresCluster.start(this.dataSource, this, onError, timings);
    return this.clusterStart;
  }

  override async close(): Promise<void> {
    const cluster = this.clusterStart;
    this.clusterStart = undefined;
    if (cluster !== undefined) await (await cluster.catch(() => undefined))?.stop().catch(() => undefined);
    await super.close();
  }
}

export async function openPostgresStore(
  target: PostgresStoreTarget,
  options: PostgresStoreOptions = {},
): Promise<PostgresAppServerStore> {
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
    const executor = new StoreExecutor(dataSource, backend.reader, backend.beginSql);
    const recovered = await TypeOrmAppServerStore.recover(backend, executor, options);
    return new PostgresAppServerStore(backend, executor, recovered, dataSource);
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
