/**
 * The in-memory thread state shared by the thread, turn and approval modules: subscriptions and
 * the closed flag, notification delivery (with the resume hold), and the active turn of each thread.
 */
import { Module } from '@nestjs/common';
import { ActiveTurns } from '../../core/turns/active-turns';
import { ThreadNotifications } from '../../protocols/app-server-v1/delivery/thread-notifications';
import { ThreadSubscriptions } from '../../core/events/thread-subscriptions';
import { THREAD_EVENT_BUS } from '../../core/events/thread-event-bus';

@Module({
  providers: [
    ThreadSubscriptions,
    ThreadNotifications,
    { provide: THREAD_EVENT_BUS, useExisting: ThreadNotifications },
    ActiveTurns,
  ],
  exports: [ThreadSubscriptions, ThreadNotifications, THREAD_EVENT_BUS, ActiveTurns],
})
export class ThreadStateModule {}
