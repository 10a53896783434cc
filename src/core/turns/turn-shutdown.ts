/**
 * The turns' part of the shutdown sequence (docs/spec/protocol.md §1.9 steps 2, 3 and 5): every running turn
 * gets its pending approvals resolved as timeout "server shutting down" (with `approvalResolved`)
 * and its run cancelled with that reason; the turns then finish through the normal terminal path
 * while stdout is writable. Turns still unfinished shortly before the 5 s deadline are written to
 * the store directly — interrupted, their in-progress items interrupted, the thread released —
 * without any notification.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { emptyProtocolTokenUsage } from '../../runtime/usage/usage-ledger';
import { APPROVAL_REASONS } from '../approvals/approval-answer';
import { ApprovalRouter } from '../approvals/approval-router';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import type { ItemVersion } from '../store/records';
import type { TurnCompletion } from '../store/records';
import { ServerLifecycle, type ShutdownContext } from '../lifecycle/server-lifecycle';
import { causeMessage } from '../../runtime/cause-message';
import { ActiveTurns } from './active-turns';
import { conversationChangeOf } from './conversation-change';
import type { RunningTurn } from './running-turn';
import { projectTurnCompleted } from './turn-completion';

/** The cancel reason and approval reason of §1.9. */
const SERVER_SHUTTING_DOWN_REASON = APPROVAL_REASONS.shuttingDown;

/** Direct store writes are issued this long before the core's deadline, so they land before the store closes. */
const FORCED_WRITE_MARGIN_MS = 250;
/** How often shutdown looks again for turns that were still starting. */
const STARTING_TURN_POLL_MS = 20;

@Injectable()
export class TurnShutdown {
  private readonly logger = new Logger('TurnShutdown');

  constructor(
    @Inject(ServerLifecycle) lifecycle: ServerLifecycle,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
  ) {
    lifecycle.onShutdown((context) => this.shutdown(context));
  }

  async shutdown({ deadline }: ShutdownContext): Promise<void> {
    const forceAt = deadline - FORCED_WRITE_MARGIN_MS;
    const cancelled = new Set<RunningTurn>();
    for (;;) {
      const live = this.activeTurns.liveTurns();
      for (const turn of live) {
        if (cancelled.has(turn)) continue;
        cancelled.add(turn);
        this.approvals.resolveTurn(turn.turnId, SERVER_SHUTTING_DOWN_REASON, 'now');
        turn.handle.cancel(SERVER_SHUTTING_DOWN_REASON);
      }
      if (live.length === 0 && this.activeTurns.startingCount() === 0) return;
      const remaining = forceAt - Date.now();
      if (remaining <= 0) break;
      const finished = Promise.all(live.map((turn) => turn.finished));
      await settlesWithin(
        finished,
        live.length === 0 ? Math.min(STARTING_TURN_POLL_MS, remaining) : remaining,
      );
      // Let I/O run before looking again (a finished turn may still be handing its slot on).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(this.activeTurns.liveTurns().map((turn) => this.finishInStore(turn)));
  }

  /** §1.9 step 5 for one turn, unless its own finalization already claimed the write. */
  private async finishInStore(turn: RunningTurn): Promise<void> {
    if (!turn.claimPersistence('shutdown')) return;
    this.approvals.forgetTurn(turn.turnId);
    this.activeTurns.release(turn.threadId);
    const now = Date.now();
    const interrupted: ItemVersion[] = turn.projector
      .liveItems()
      .filter((version) => version.item.status === 'inProgress')
      .map((version) => ({
        item: { ...version.item, status: 'interrupted', updatedAt: now },
        createdSeq: version.createdSeq,
        changeSeq: turn.changeCounter.next(),
      }));
    // With whatever the store refused during the turn (their notifications went out).
    const items = turn.withRefusedItems(interrupted);
    try {
      await this.store.finishTurn({
        threadId: turn.threadId,
        turnId: turn.turnId,
        completion: this.completionOf(turn, now),
        items,
        ...conversationChangeOf(turn.settledResult, turn.input, turn.kind),
        now,
      });
    } catch (error) {
      this.logger.error(`turn ${turn.turnId} could not be written at shutdown: ${causeMessage(error)}`);
    }
  }

  /** The run's own result when it settled; otherwise interrupted / cancelled / "server shutting down". */
  private completionOf(turn: RunningTurn, now: number): TurnCompletion {
    if (turn.settledResult !== null) {
      const { status, result } = projectTurnCompleted(
        { threadId: turn.threadId, turnId: turn.turnId, runId: turn.runId },
        { kind: 'finished', result: turn.settledResult },
      );
      return { status, completedAt: now, result };
    }
    return {
      status: 'interrupted',
      completedAt: now,
      result: {
        error: SERVER_SHUTTING_DOWN_REASON,
        completionReason: 'cancelled',
        tokenUsage: emptyProtocolTokenUsage(),
      },
    };
  }
}

/** Waits for `work`, but at most `ms` (never rejects). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
  });
  try {
    await Promise.race([work.then(() => undefined), expired]);
  } finally {
    clearTimeout(timer);
  }
}
