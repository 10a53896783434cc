/**
 * Turn ownership that moves on reconnect (docs/spec/websocket.md §6, amending docs/spec/protocol.md §7.3): a turn whose
 * owner's connection is gone keeps running without an owner; the first connection that then
 * resumes the thread becomes its owner and is asked every still-pending approval again. stdio never
 * gets here — its EOF is a shutdown.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ApprovalRouter } from '../approvals/approval-router';
import { ActiveTurns } from './active-turns';

@Injectable()
export class TurnOwnership {
  constructor(
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
  ) {}

  /**
   * `requesterId` resumed the thread: when its live turn has no reachable owner, the requester
   * takes it over. Returns true when ownership moved.
   */
  claimIfUnowned(threadId: string, requesterId: string): boolean {
    const turn = this.activeTurns.live(threadId);
    if (turn === undefined || turn.ownerConnectionId === requesterId) return false;
    if (this.approvals.canReach(turn.ownerConnectionId)) return false;
    turn.ownerConnectionId = requesterId;
    this.approvals.handOver(turn.turnId, requesterId);
    return true;
  }
}
