/**
 * A thread's item change counter (docs/spec/protocol.md §8.8): every item creation and every item update,
 * including delta updates kept only in memory, takes the next value. One counter per thread,
 * shared by its successive turns; seed it with ItemRepository.lastChangeSeq(threadId).
 */
export interface ChangeCounter {
  next(): number;
}

export class ThreadChangeCounter implements ChangeCounter {
  constructor(private value = 0) {}

  next(): number {
    this.value += 1;
    return this.value;
  }

  /** Never moves back: values this process handed out but did not persist stay used. */
  advanceTo(value: number): void {
    if (value > this.value) this.value = value;
  }

  /** The last value handed out (the seed when none yet). */
  get last(): number {
    return this.value;
  }
}
