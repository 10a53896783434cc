/**
 * The one-active-turn-per-thread rule (docs/spec/protocol.md §8.2) in memory. A thread's slot goes
 * `starting` (a start or a follow-up is resolving the host and starting the run) → `running`
 * (the turn is active: steer, follow-up and interrupt reach it) → `finishing` (the turn ended and
 * is emitting its last notifications) → free, or back to `starting` for the next follow-up. Any
 * slot makes the thread busy for a new start, so nothing of a new turn can be emitted before the
 * previous `turnCompleted`.
 */
import { Injectable } from '@nestjs/common';
import type { RunningTurn } from './running-turn';

type Slot =
  { phase: 'starting' } | { phase: 'running'; turn: RunningTurn } | { phase: 'finishing'; turn: RunningTurn };

@Injectable()
export class ActiveTurns {
  private readonly slots = new Map<string, Slot>();

  /** Takes the thread's slot for a starting turn; false when the thread is busy. */
  tryReserve(threadId: string): boolean {
    if (this.slots.has(threadId)) return false;
    this.slots.set(threadId, { phase: 'starting' });
    return true;
  }

  /** The reserved slot's turn is now active. */
  activate(turn: RunningTurn): void {
    const slot = this.slots.get(turn.threadId);
    if (slot?.phase !== 'starting') throw new Error(`thread ${turn.threadId} has no reserved turn slot`);
    this.slots.set(turn.threadId, { phase: 'running', turn });
  }

  /** The turn ended: it no longer accepts steering, follow-ups or interrupts; the thread stays busy. */
  markFinishing(turn: RunningTurn): void {
    if (this.running(turn.threadId) === turn) this.slots.set(turn.threadId, { phase: 'finishing', turn });
  }

  /** Hands the thread's slot to the next (follow-up) turn start. */
  reserveAgain(threadId: string): void {
    this.slots.set(threadId, { phase: 'starting' });
  }

  release(threadId: string): void {
    this.slots.delete(threadId);
  }

  isBusy(threadId: string): boolean {
    return this.slots.has(threadId);
  }

  /** The active turn (protocol.md "active turn"): started and not yet ended. */
  running(threadId: string): RunningTurn | undefined {
    const slot = this.slots.get(threadId);
    return slot?.phase === 'running' ? slot.turn : undefined;
  }

  isRunning(threadId: string): boolean {
    return this.running(threadId) !== undefined;
  }

  /** The running or finishing turn, whose in-memory items overlay the store on replay. */
  live(threadId: string): RunningTurn | undefined {
    const slot = this.slots.get(threadId);
    return slot !== undefined && slot.phase !== 'starting' ? slot.turn : undefined;
  }

  /** Every turn that is running or finishing. */
  liveTurns(): RunningTurn[] {
    const turns: RunningTurn[] = [];
    for (const slot of this.slots.values()) if (slot.phase !== 'starting') turns.push(slot.turn);
    return turns;
  }

  /** Threads whose turn is still starting. */
  startingCount(): number {
    let count = 0;
    for (const slot of this.slots.values()) if (slot.phase === 'starting') count += 1;
    return count;
  }
}
