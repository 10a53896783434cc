/**
 * Finalization of a turn whose event stream ended (docs/spec/protocol.md §8.5 steps 1–4): still-inProgress
 * items completed as `interrupted`, then the turn, its conversation messages (§8.10) and the
 * thread persisted in one transaction, the turn no longer active, `threadStatusChanged(idle)`
 * unless the thread is archived, and `turnCompleted`. Step 5 (the next follow-up) is the caller's.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApprovalRouter } from '../approvals/approval-router';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { causeMessage } from '../../runtime/cause-message';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../events/thread-event-bus';
import { ActiveTurns } from './active-turns';
import type { RunningTurn } from './running-turn';
import type { TurnCompletedParams } from '../model/types';
import type { TurnFinalization } from './run-projector';
import { storeFailedCompletion } from './store-failed-completion';
import type { TurnOutcome } from './turn-completion';
import { TurnForwarder } from './turn-forwarder';
import { LostTurnAbandonment } from './lost-turn-abandonment';

@Injectable()
export class TurnFinalizer {
  private readonly logger = new Logger('TurnFinalizer');

  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(THREAD_EVENT_BUS) private readonly events: ThreadEventBus,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(TurnForwarder) private readonly forwarder: TurnForwarder,
    @Inject(LostTurnAbandonment) private readonly abandonment: LostTurnAbandonment,
  ) {}

  /**
   * Steps 1–4; false when shutdown or instance loss took the turn over first, or the store finds
   * it already ended by another instance (then nothing is emitted and no follow-up starts).
   */
  async finalize(turn: RunningTurn, outcome: TurnOutcome): Promise<boolean> {
    this.approvals.forgetTurn(turn.turnId);
    const finalization = turn.projector.finalize(outcome);
    await this.forwarder.applyEffects(turn, finalization.effects);
    if (!turn.claimPersistence('finalizer')) return false;

    const turnCompleted = await this.persist(turn, finalization);
    turn.telemetry.end(turnCompleted?.status ?? finalization.status);
    if (turnCompleted === null) {
      // Declared lost while paused, and the run ended before the heartbeat noticed (docs/spec/postgres.md §2).
      this.abandonment.letGo(turn);
      return false;
    }
    this.activeTurns.markFinishing(turn);

    const { threadId } = turn;
    if (!(await this.isArchived(threadId))) {
      await this.events.broadcast(threadId, 'threadStatusChanged', { threadId, status: 'idle' });
    }
    await this.events.broadcast(threadId, 'turnCompleted', turnCompleted);
    return true;
  }

  /**
   * Step 2; the turnCompleted to send, or null when the turn had already ended in the store (another
   * instance recovered it). When the store refuses the finalization (e.g. disk full)
   * the turn ends `failed` with the store error, and that smaller write — no history, no items —
   * is tried again now and, while it fails, with every later turn write, so the stored turn ends
   * up saying what the client was told.
   */
  private async persist(
    turn: RunningTurn,
    finalization: TurnFinalization,
  ): Promise<TurnCompletedParams | null> {
    // One "now" for the turn's completedAt and the thread's updatedAt (§8.5 step 2).
    const { completedAt } = finalization;
    const base = { threadId: turn.threadId, turnId: turn.turnId, now: completedAt };
    // Item states the store refused during the turn are part of its atomic finish (§8.5 step 2).
    const items = turn.withRefusedItems([]);
    try {
      const written = await this.store.finishTurn({
        ...base,
        completion: { status: finalization.status, completedAt, result: finalization.result },
        items,
        messages: finalization.messages,
        compactedHistory: finalization.compactedHistory,
        promptSize: finalization.promptSize,
      });
      turn.itemsWritten();
      return written ? finalization.turnCompleted : null;
    } catch (error) {
      const message = causeMessage(error);
      await this.forwarder.warn(turn, 'store', message);
      const failed = storeFailedCompletion(finalization, message);
      try {
        await this.store.deferTurnFinish({
          ...base,
          completion: { status: 'failed', completedAt, result: failed.result },
          messages: [],
        });
      } catch (retryError) {
        // The store keeps it and writes it with its next turn transaction or at close.
        this.logger.error(`turn ${turn.turnId}: storing its failure failed too: ${causeMessage(retryError)}`);
      }
      return failed.turnCompleted;
    }
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
