/**
 * The in-memory thread state shared by the thread, turn and approval modules: subscriptions and
 * the closed flag, notification delivery (with the resume hold) to App Server and ACP connections,
 * and the active turn of each thread.
 */
import { Module } from '@nestjs/common';
import { ActiveTurns } from '../../core/turns/active-turns';
import { ThreadNotifications } from '../../protocols/app-server-v1/delivery/thread-notifications';
import { ThreadSubscriptions } from '../../core/events/thread-subscriptions';
import { THREAD_EVENT_BUS } from '../../core/events/thread-event-bus';
import { AcpConnections } from '../../protocols/acp/delivery/acp-connections';
import { AcpSessionEvents } from '../../protocols/acp/delivery/acp-session-events';
import { ThreadEventRouting } from '../delivery/thread-event-routing';

@Module({
  providers: [
    ThreadSubscriptions,
    ThreadNotifications,
    AcpConnections,
    AcpSessionEvents,
    ThreadEventRouting,
    { provide: THREAD_EVENT_BUS, useExisting: ThreadEventRouting },
    ActiveTurns,
  ],
  exports: [ThreadSubscriptions, ThreadNotifications, AcpConnections, THREAD_EVENT_BUS, ActiveTurns],
})
export class ThreadStateModule {}
