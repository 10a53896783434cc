/**
 * The in-memory thread state shared by the thread, turn and approval modules: subscriptions and
 * the closed flag, notification delivery (with the resume hold) to App Server and ACP connections,
 * and the active turn of each thread.
 */
import { Inject, Injectable, Module } from '@nestjs/common';
import { POSTGRES_CLUSTER, PersistenceModule } from './persistence.module';
import type { PostgresCluster } from '../../persistence/postgres/cluster/postgres-cluster';
import { INSTANCE_LOST_ERROR } from '../../persistence/postgres/cluster/instance-heartbeat';
import { RelayingThreadEventBus } from '../../core/events/relaying-thread-event-bus';
import { REMOTE_THREAD_JOIN } from '../../core/events/remote-thread-join';
import { announceLostTurns } from '../../core/turns/lost-turn-announcement';
import { THREAD_STORE, type ThreadStore } from '../../core/store/thread-store';
import type { ThreadEventBus } from '../../core/events/thread-event-bus';
import { causeMessage } from '../../runtime/cause-message';
import { ActiveTurns } from '../../core/turns/active-turns';
import { ThreadNotifications } from '../../protocols/app-server-v1/delivery/thread-notifications';
import { ThreadSubscriptions } from '../../core/events/thread-subscriptions';
import { THREAD_EVENT_BUS } from '../../core/events/thread-event-bus';
import { AcpConnections } from '../../protocols/acp/delivery/acp-connections';
import { AcpSessionEvents } from '../../protocols/acp/delivery/acp-session-events';
import { ThreadEventRouting } from '../delivery/thread-event-routing';

/** docs/spec/postgres.md §2: a survivor's recovery of a lost instance's turns reaches the subscribers. */
@Injectable()
export class LostInstanceAnnouncer {
  constructor(
    @Inject(POSTGRES_CLUSTER) cluster: PostgresCluster | null,
    @Inject(THREAD_STORE) store: ThreadStore,
    @Inject(THREAD_EVENT_BUS) events: ThreadEventBus,
  ) {
    cluster?.heartbeat.onTurnsRecovered((turns) => {
      const streamedText = (itemId: string) => cluster.relay.streamedText(itemId);
      void announceLostTurns(store, events, turns, INSTANCE_LOST_ERROR, streamedText).catch(
        (error: unknown) => process.stderr.write(`[cluster] ${causeMessage(error)}\n`),
      );
    });
  }
}

@Module({
  imports: [PersistenceModule],
  providers: [
    ThreadSubscriptions,
    ThreadNotifications,
    AcpConnections,
    AcpSessionEvents,
    ThreadEventRouting,
    {
      // Several instances on one PostgreSQL store: every broadcast also reaches the others' subscribers.
      provide: REMOTE_THREAD_JOIN,
      useFactory: (
        local: ThreadEventRouting,
        cluster: PostgresCluster | null,
        activeTurns: ActiveTurns,
      ): RelayingThreadEventBus | null => {
        if (cluster === null) return null;
        cluster.relay.setLocalTurns((threadId) => activeTurns.isBusy(threadId));
        return new RelayingThreadEventBus(local, cluster.relay);
      },
      inject: [ThreadEventRouting, POSTGRES_CLUSTER, ActiveTurns],
    },
    {
      provide: THREAD_EVENT_BUS,
      useFactory: (local: ThreadEventRouting, relaying: RelayingThreadEventBus | null): ThreadEventBus =>
        relaying ?? local,
      inject: [ThreadEventRouting, REMOTE_THREAD_JOIN],
    },
    ActiveTurns,
    LostInstanceAnnouncer,
  ],
  exports: [
    ThreadSubscriptions,
    ThreadNotifications,
    AcpConnections,
    THREAD_EVENT_BUS,
    REMOTE_THREAD_JOIN,
    ActiveTurns,
  ],
})
export class ThreadStateModule {}
