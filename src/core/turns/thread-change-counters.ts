/**
 * One change counter per thread for this process (protocol.md §8.8), shared by the thread's
 * successive turns and seeded from the store's highest `change_seq` the first time it is needed.
 */
import { Inject, Injectable } from '@nestjs/common';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { ThreadChangeCounter } from './change-counter';

@Injectable()
export class ThreadChangeCounters {
  private readonly counters = new Map<string, ThreadChangeCounter>();

  constructor(@Inject(THREAD_STORE) private readonly store: ThreadStore) {}

  async counterFor(threadId: string): Promise<ThreadChangeCounter> {
    const known = this.counters.get(threadId);
    if (known !== undefined) return known;
    const seed = await this.store.items.lastChangeSeq(threadId);
    // Another start may have seeded it while the store was read.
    const counter = this.counters.get(threadId) ?? new ThreadChangeCounter(seed);
    this.counters.set(threadId, counter);
    return counter;
  }
}
