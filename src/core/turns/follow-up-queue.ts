/** Per-thread FIFO of follow-up inputs (docs/spec/protocol.md §3.11), in memory, bounded per thread. */
import { Injectable } from '@nestjs/common';
import { DomainErrors } from '../domain-error';

/**
 * At most this many follow-ups wait per thread: without a bound a client looping on follow-ups
 * queued hundreds of turns that kept running long after it gave up.
 */
export const MAX_QUEUED_FOLLOW_UPS = 64;

@Injectable()
export class FollowUpQueue {
  private readonly queues = new Map<string, Record<string, unknown>[][]>();

  /** Appends the input; throws `-32602 Follow-up queue is full` when the thread already holds the maximum. */
  push(threadId: string, input: Record<string, unknown>[]): void {
    const queue = this.queues.get(threadId) ?? [];
    if (queue.length >= MAX_QUEUED_FOLLOW_UPS) throw DomainErrors.followUpQueueFull(MAX_QUEUED_FOLLOW_UPS);
    queue.push(structuredClone(input));
    this.queues.set(threadId, queue);
  }

  /** The oldest queued input, removed; undefined when none is queued. */
  shift(threadId: string): Record<string, unknown>[] | undefined {
    const queue = this.queues.get(threadId);
    const next = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.queues.delete(threadId);
    return next;
  }

  /**
   * Forgets the thread's queued inputs and tells how many there were: an interrupt with
   * `clearFollowUps: true` (docs/spec/protocol.md §3.12 v1.2), or their turn ended elsewhere
   * (docs/spec/postgres.md §2 instance loss).
   */
  clear(threadId: string): number {
    const dropped = this.queues.get(threadId)?.length ?? 0;
    this.queues.delete(threadId);
    return dropped;
  }

  hasQueued(threadId: string): boolean {
    return (this.queues.get(threadId)?.length ?? 0) > 0;
  }
}
