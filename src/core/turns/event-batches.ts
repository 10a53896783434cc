/**
 * Reads a run's event stream ahead of its consumer, so the consumer can take every event that
 * arrived while it was busy (e.g. waiting for a store commit) as one batch. The events are
 * already held by the run's journal: a journal reader hands over what it holds in one step
 * (`nextBatch`); any other source is read ahead by at most one batch.
 */

/** An iterator that hands over everything it holds at once (the run journal's reader). */
interface BatchReader<T> extends AsyncIterator<T> {
  nextBatch(max: number): Promise<T[]>;
}

function readsBatches<T>(iterator: AsyncIterator<T>): iterator is BatchReader<T> {
  return typeof (iterator as Partial<BatchReader<T>>).nextBatch === 'function';
}

export class EventBatches<T> {
  private readonly buffered: T[] = [];
  private failure: { error: unknown } | null = null;
  private ended = false;
  private stopped = false;
  private wakeup: (() => void) | null = null;
  /** Resolves the read-ahead's wait for room. */
  private room: (() => void) | null = null;
  private readonly iterator: AsyncIterator<T>;
  private readonly batchReader: BatchReader<T> | null;

  constructor(
    source: AsyncIterable<T>,
    /** Largest batch handed out at once; the rest waits for the next take. */
    private readonly maxBatch: number,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
    this.batchReader = readsBatches(this.iterator) ? this.iterator : null;
    if (this.batchReader === null) void this.pump();
  }

  /**
   * Every buffered event (up to maxBatch), waiting for at least one; an empty batch once the
   * stream has ended and everything was taken. A stream failure is thrown after the events that
   * came before it.
   */
  async take(): Promise<T[]> {
    // A journal reader holds the events itself; a take pending at stop ends when the journal does.
    if (this.batchReader !== null) return this.stopped ? [] : this.batchReader.nextBatch(this.maxBatch);
    while (this.buffered.length === 0 && !this.ended && !this.stopped) {
      await new Promise<void>((resolve) => (this.wakeup = resolve));
    }
    if (this.buffered.length > 0) {
      const batch = this.buffered.splice(0, this.maxBatch);
      this.makeRoom();
      return batch;
    }
    if (this.failure !== null) {
      const { error } = this.failure;
      this.failure = null;
      throw error;
    }
    return [];
  }

  /** Stops reading ahead (the consumer gave up on the stream). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.wake();
    this.makeRoom();
    void this.iterator.return?.()?.catch(() => undefined);
  }

  private async pump(): Promise<void> {
    try {
      while (!this.stopped) {
        // Read ahead at most one batch: while the consumer is paused (outbound backpressure) the
        // rest stays in the journal, compact, instead of here as one object per event.
        while (this.buffered.length >= this.maxBatch && !this.stopped)
          await new Promise<void>((resolve) => (this.room = resolve));
        if (this.stopped) break;
        const next = await this.iterator.next();
        if (next.done === true || this.stopped) break;
        this.buffered.push(next.value);
        this.wake();
      }
    } catch (error) {
      this.failure = { error };
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const wakeup = this.wakeup;
    this.wakeup = null;
    wakeup?.();
  }

  private makeRoom(): void {
    const room = this.room;
    this.room = null;
    room?.();
  }
}
