import { Inject, Injectable, Module } from '@nestjs/common';
import { ApprovalsModule } from './approvals.module';
import { POSTGRES_CLUSTER, PersistenceModule } from './persistence.module';
import { ThreadStateModule } from './thread-state.module';
import { McpModule } from './mcp.module';
import { FollowUpQueue } from '../../core/turns/follow-up-queue';
import { ThreadChangeCounters } from '../../core/turns/thread-change-counters';
import { TurnFinalizer } from '../../core/turns/turn-finalizer';
import { TurnForwarder } from '../../core/turns/turn-forwarder';
import { TurnLauncher } from '../../core/turns/turn-launcher';
import { TurnShutdown } from '../../core/turns/turn-shutdown';
import { LostTurnAbandonment } from '../../core/turns/lost-turn-abandonment';
import type { PostgresCluster } from '../../persistence/postgres/cluster/postgres-cluster';
import { INSTANCE_LOST_ERROR } from '../../persistence/postgres/cluster/instance-heartbeat';
import { TurnsHandlers } from '../../protocols/app-server-v1/handlers/turns.handlers';
import { TurnsService } from '../../core/turns/turns.service';
import { TURN_DEFAULTS, type TurnDefaults } from '../../core/turns/turn-defaults';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';

/** docs/spec/postgres.md §2: when another instance declared this one lost, the turns it recovered stop here. */
@Injectable()
export class DeclaredLostInstance {
  constructor(
    @Inject(POSTGRES_CLUSTER) cluster: PostgresCluster | null,
    @Inject(LostTurnAbandonment) abandonment: LostTurnAbandonment,
  ) {
    // A failure is the heartbeat's to report; it checks again at its next beat.
    cluster?.heartbeat.onDeclaredLost(async () => {
      const turnIds = await abandonment.abandonRecovered(INSTANCE_LOST_ERROR);
      if (turnIds.length > 0)
        process.stderr.write(
          `[cluster] another instance declared this one lost and ended its turns; stopped here: ${turnIds.join(', ')}\n`,
        );
    });
  }
}

/** `turn/*` (docs/spec/protocol.md §3.9–§3.12), each turn's background life (§8) and its shutdown (§1.9). */
@Module({
  imports: [PersistenceModule, ThreadStateModule, ApprovalsModule, McpModule],
  providers: [
    TurnsHandlers,
    {
      provide: TURN_DEFAULTS,
      inject: [APP_SERVER_OPTIONS],
      useFactory: ({
        runner,
        approvalPolicy,
        approvalTimeoutMs,
        sandbox,
      }: ResolvedAppServerOptions): TurnDefaults => ({
        runner,
        approvalPolicy,
        approvalTimeoutMs,
        sandbox,
      }),
    },
    FollowUpQueue,
    ThreadChangeCounters,
    TurnLauncher,
    TurnForwarder,
    TurnFinalizer,
    TurnsService,
    TurnShutdown,
    LostTurnAbandonment,
    DeclaredLostInstance,
  ],
})
export class TurnsModule {}
