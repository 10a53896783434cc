/** Per-thread FIFO of `turn/followUp` inputs (protocol.md §3.11), in memory. */
import { Injectable } from '@nestjs/common';

@Injectable()
export class FollowUpQueue {
  private readonly queues = new Map<string, Record<string, unknown>[][]>();

  push(threadId: string, input: Record<string, unknown>[]): void {
    const queue = this.queues.get(threadId) ?? [];
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

  hasQueued(threadId: string): boolean {
    return (this.queues.get(threadId)?.length ?? 0) > 0;
  }
}
