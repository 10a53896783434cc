/**
 * The in-memory thread state shared by the thread, turn and approval modules: subscriptions and
 * the closed flag, notification delivery (with the resume hold), and the active turn of each thread.
 */
import { Module } from '@nestjs/common';
import { ActiveTurns } from '../../core/turns/active-turns';
import { ThreadNotifications } from '../../core/threads/thread-notifications';
import { ThreadSubscriptions } from '../../core/threads/thread-subscriptions';

@Module({
  providers: [ThreadSubscriptions, ThreadNotifications, ActiveTurns],
  exports: [ThreadSubscriptions, ThreadNotifications, ActiveTurns],
})
export class ThreadStateModule {}
