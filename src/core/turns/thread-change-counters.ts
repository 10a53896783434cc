/**
 * One change counter per thread for this process (docs/spec/protocol.md §8.8), shared by the thread's
 * successive turns. Each turn start moves it up to the store's highest `change_seq`: another
 * server process on the same store (docs/spec/postgres.md §2) may have run the thread's previous turns, and
 * only the process owning the thread's one running turn writes its items, so the stored maximum
 * plus this process's own values is the thread's sequence.
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
    // A known counter is good enough when the store cannot answer now: the turn then reports the
    // store's failures as they happen (warning `store`), as it always has.
    const stored = await this.store.items
      .lastChangeSeq(threadId)
      .catch((error: unknown) => (known === undefined ? Promise.reject(error) : known.last));
    // Another start may have created it while the store was read.
    const counter = this.counters.get(threadId) ?? new ThreadChangeCounter(stored);
    counter.advanceTo(stored);
    this.counters.set(threadId, counter);
    return counter;
  }
}
