/**
 * Nest wiring of the store: opens `ResolvedAppServerOptions.storeTarget` (SQLite or PostgreSQL) at bootstrap (migrations and
 * restart recovery happen before the transport starts reading) and closes it at application
 * shutdown, after the other modules' shutdown work. `APP_SERVER_OPTIONS` must be provided by a
 * global module (AppServerModule.forRoot).
 */
import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  INSTANCE_LEASE,
  UNSHARED_INSTANCE_LEASE,
  type InstanceLease,
} from '../../core/lifecycle/instance-lease';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';
import { TypeOrmAppServerStore } from '../../persistence/typeorm/app-server-store';
import { openAppServerStore } from '../../persistence/open-app-server-store';
import { PostgresAppServerStore } from '../../persistence/postgres/postgres-store';
import type { PostgresCluster } from '../../persistence/postgres/cluster/postgres-cluster';
import { clusterTimingsFromEnv } from '../../persistence/postgres/cluster/instance-heartbeat';
import { causeMessage } from '../../runtime/cause-message';
import { TURN_CONTROL_FORWARDER } from '../../core/turns/turn-control-forwarding';
import { REMOTE_APPROVALS } from '../../core/approvals/remote-approvals';
import { THREAD_STORE } from '../../core/store/thread-store';
import { ConversationRepository } from '../../persistence/typeorm/conversation.repository';
import { ItemRepository } from '../../persistence/typeorm/item.repository';
import { ThreadRepository } from '../../persistence/typeorm/thread.repository';
import { TurnRepository } from '../../persistence/typeorm/turn.repository';

/** docs/spec/postgres.md §2: the instances sharing a PostgreSQL store; null on SQLite. */
export const POSTGRES_CLUSTER = Symbol('POSTGRES_CLUSTER');

function logClusterError(error: unknown): void {
  process.stderr.write(`[cluster] ${causeMessage(error)}\n`);
}

@Injectable()
export class StoreShutdown implements OnApplicationShutdown {
  constructor(@Inject(TypeOrmAppServerStore) private readonly store: TypeOrmAppServerStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Module({
  providers: [
    {
      provide: TypeOrmAppServerStore,
      useFactory: (options: ResolvedAppServerOptions) => openAppServerStore(options.storeTarget),
      inject: [APP_SERVER_OPTIONS],
    },
    {
      provide: ThreadRepository,
      useFactory: (store: TypeOrmAppServerStore) => store.threads,
      inject: [TypeOrmAppServerStore],
    },
    {
      provide: TurnRepository,
      useFactory: (store: TypeOrmAppServerStore) => store.turns,
      inject: [TypeOrmAppServerStore],
    },
    {
      provide: ItemRepository,
      useFactory: (store: TypeOrmAppServerStore) => store.items,
      inject: [TypeOrmAppServerStore],
    },
    {
      provide: ConversationRepository,
      useFactory: (store: TypeOrmAppServerStore) => store.conversations,
      inject: [TypeOrmAppServerStore],
    },
    { provide: THREAD_STORE, useExisting: TypeOrmAppServerStore },
    {
      provide: TURN_CONTROL_FORWARDER,
      useFactory: (cluster: PostgresCluster | null) => cluster?.control ?? null,
      inject: [POSTGRES_CLUSTER],
    },
    {
      provide: INSTANCE_LEASE,
      useFactory: (cluster: PostgresCluster | null): InstanceLease =>
        cluster?.heartbeat ?? UNSHARED_INSTANCE_LEASE,
      inject: [POSTGRES_CLUSTER],
    },
    {
      provide: REMOTE_APPROVALS,
      useFactory: (cluster: PostgresCluster | null) => cluster?.approvals ?? null,
      inject: [POSTGRES_CLUSTER],
    },
    {
      provide: POSTGRES_CLUSTER,
      useFactory: (store: TypeOrmAppServerStore): Promise<PostgresCluster> | null =>
        store instanceof PostgresAppServerStore
          ? store.cluster(logClusterError, clusterTimingsFromEnv(process.env))
          : null,
      inject: [TypeOrmAppServerStore],
    },
    StoreShutdown,
  ],
  exports: [
    POSTGRES_CLUSTER,
    INSTANCE_LEASE,
    TURN_CONTROL_FORWARDER,
    REMOTE_APPROVALS,
    TypeOrmAppServerStore,
    THREAD_STORE,
    ThreadRepository,
    TurnRepository,
    ItemRepository,
    ConversationRepository,
  ],
})
export class PersistenceModule {}
