/**
 * Reads a run's event stream ahead of its consumer, so the consumer can take every event that
 * arrived while it was busy (e.g. waiting for a store commit) as one batch. The events are
 * already held by the run's journal; this only keeps references to at most one batch ahead.
 */
export class EventBatches<T> {
  private readonly buffered: T[] = [];
  private failure: { error: unknown } | null = null;
  private ended = false;
  private stopped = false;
  private wakeup: (() => void) | null = null;
  /** Resolves the read-ahead's wait for room. */
  private room: (() => void) | null = null;
  private readonly iterator: AsyncIterator<T>;

  constructor(
    source: AsyncIterable<T>,
    /** Largest batch handed out at once; the rest waits for the next take. */
    private readonly maxBatch: number,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
    void this.pump();
  }

  /**
   * Every buffered event (up to maxBatch), waiting for at least one; an empty batch once the
   * stream has ended and everything was taken. A stream failure is thrown after the events that
   * came before it.
   */
  async take(): Promise<T[]> {
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
