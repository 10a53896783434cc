/**
 * docs/spec/postgres.md §2, instance loss seen from the lost instance: it was silent long enough (paused,
 * cut off from the database) that another instance declared it lost and ended its running turns
 * `interrupted`, announcing that end to every subscriber. Terminal statuses are final (§8.2), so
 * those turns stop here without a trace: their runs cancelled, pending approvals and queued
 * follow-ups dropped, no store write and no notification, and the thread's slot freed. A turn the
 * store still names as its thread's active turn was not recovered (it started after the recovery)
 * and goes on.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ApprovalRouter } from '../approvals/approval-router';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { ActiveTurns } from './active-turns';
import { FollowUpQueue } from './follow-up-queue';
import type { RunningTurn } from './running-turn';

@Injectable()
export class LostTurnAbandonment {
  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
    @Inject(FollowUpQueue) private readonly followUps: FollowUpQueue,
  ) {}

  /** Stops every live turn of this instance that the store no longer has running; returns their ids. */
  async abandonRecovered(reason: string): Promise<string[]> {
    const abandoned: string[] = [];
    for (const turn of this.activeTurns.liveTurns()) {
      const thread = await this.store.threads.get(turn.threadId);
      if (thread?.activeTurnId === turn.turnId) continue;
      if (!turn.claimPersistence('lost')) continue;
      this.approvals.forgetTurn(turn.turnId);
      this.letGo(turn);
      turn.handle.cancel(reason);
      abandoned.push(turn.turnId);
    }
    return abandoned;
  }

  /**
   * What this instance still holds for a turn another instance ended: its queued follow-ups (gone
   * with it, as had this instance died, §8.11) and its thread's slot.
   */
  letGo(turn: RunningTurn): void {
    this.followUps.clear(turn.threadId);
    if (this.activeTurns.live(turn.threadId) === turn) this.activeTurns.release(turn.threadId);
  }
}
