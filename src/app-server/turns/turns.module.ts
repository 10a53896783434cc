import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { PersistenceModule } from '../persistence/persistence.module';
import { ThreadStateModule } from '../threads/thread-state.module';
import { FollowUpQueue } from './follow-up-queue';
import { ThreadChangeCounters } from './thread-change-counters';
import { TurnFinalizer } from './turn-finalizer';
import { TurnForwarder } from './turn-forwarder';
import { TurnLauncher } from './turn-launcher';
import { TurnShutdown } from './turn-shutdown';
import { TurnsController } from './turns.controller';
import { TurnsService } from './turns.service';

/** `turn/*` (protocol.md §3.9–§3.12), each turn's background life (§8) and its shutdown (§1.9). */
@Module({
  imports: [PersistenceModule, ThreadStateModule, ApprovalsModule],
  controllers: [TurnsController],
  providers: [
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
