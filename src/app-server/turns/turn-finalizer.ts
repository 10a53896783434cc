/**
 * Finalization of a turn whose event stream ended (protocol.md §8.5 steps 1–4): still-inProgress
 * items completed as `interrupted`, then the turn, its conversation messages (§8.10) and the
 * thread persisted in one transaction, the turn no longer active, `thread/status/changed(idle)`
 * unless the thread is archived, and `turn/completed`. Step 5 (the next follow-up) is the caller's.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApprovalRouter } from '../approvals/approval-router';
import { AppServerStore } from '../persistence/app-server-store';
import { causeMessage } from '../protocol/errors';
import { ThreadNotifications } from '../threads/thread-notifications';
import { ActiveTurns } from './active-turns';
import type { RunningTurn } from './running-turn';
import type { TurnOutcome } from './turn-completion';
import { TurnForwarder } from './turn-forwarder';

@Injectable()
export class TurnFinalizer {
  private readonly logger = new Logger('TurnFinalizer');

  constructor(
    @Inject(AppServerStore) private readonly store: AppServerStore,
    @Inject(ThreadNotifications) private readonly notifications: ThreadNotifications,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(TurnForwarder) private readonly forwarder: TurnForwarder,
  ) {}

  /** Steps 1–4; false when shutdown took the turn over first (then nothing is emitted). */
  async finalize(turn: RunningTurn, outcome: TurnOutcome): Promise<boolean> {
    this.approvals.forgetTurn(turn.turnId);
    const finalization = turn.projector.finalize(outcome);
    await this.forwarder.applyEffects(turn, finalization.effects);
    if (!turn.claimPersistence('finalizer')) return false;

    try {
      await this.store.finishTurn({
        threadId: turn.threadId,
        turnId: turn.turnId,
        completion: {
          status: finalization.status,
          completedAt: finalization.completedAt,
          result: finalization.result,
        },
        messages: finalization.messages,
        // One "now" for the turn's completedAt and the thread's updatedAt (§8.5 step 2).
        now: finalization.completedAt,
      });
    } catch (error) {
      await this.forwarder.warn(turn, 'store', causeMessage(error));
    }
    this.activeTurns.markFinishing(turn);

    const { threadId } = turn;
    if (!(await this.isArchived(threadId))) {
      await this.notifications.broadcast(threadId, 'thread/status/changed', { threadId, status: 'idle' });
    }
    await this.notifications.broadcast(threadId, 'turn/completed', finalization.turnCompleted);
    return true;
  }

  /** A store failure counts as not archived: the client then sees the idle it expects. */
  private async isArchived(threadId: string): Promise<boolean> {
    try {
      return (await this.store.threads.get(threadId))?.archivedAt != null;
    } catch (error) {
      this.logger.error(`reading thread ${threadId} after its turn failed: ${causeMessage(error)}`);
      return false;
    }
  }
}
