import { Module } from '@nestjs/common';
import { ApprovalsModule } from './approvals.module';
import { PersistenceModule } from './persistence.module';
import { ThreadStateModule } from './thread-state.module';
import { FollowUpQueue } from '../../core/turns/follow-up-queue';
import { ThreadChangeCounters } from '../../core/turns/thread-change-counters';
import { TurnFinalizer } from '../../core/turns/turn-finalizer';
import { TurnForwarder } from '../../core/turns/turn-forwarder';
import { TurnLauncher } from '../../core/turns/turn-launcher';
import { TurnShutdown } from '../../core/turns/turn-shutdown';
import { TurnsHandlers } from '../../protocols/app-server-v1/handlers/turns.handlers';
import { TurnsService } from '../../core/turns/turns.service';
import { TURN_DEFAULTS, type TurnDefaults } from '../../core/turns/turn-defaults';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';

/** `turn/*` (protocol.md §3.9–§3.12), each turn's background life (§8) and its shutdown (§1.9). */
@Module({
  imports: [PersistenceModule, ThreadStateModule, ApprovalsModule],
  providers: [
    TurnsHandlers,
    {
      provide: TURN_DEFAULTS,
      inject: [APP_SERVER_OPTIONS],
      useFactory: ({
        runner,
        approvalPolicy,
        approvalTimeoutMs,
      }: ResolvedAppServerOptions): TurnDefaults => ({
        runner,
        approvalPolicy,
        approvalTimeoutMs,
      }),
    },
    FollowUpQueue,
    ThreadChangeCounters,
    TurnLauncher,
    TurnForwarder,
    TurnFinalizer,
    TurnsService,
    TurnShutdown,
  ],
})
export class TurnsModule {}
