/**
 * The client's FIFO backlog (docs/spec/protocol.md §13): every server message no pending call consumed, in
 * arrival order. Readers take the first message matching a predicate, waiting for new arrivals up to
 * a deadline; nothing is lost or reordered.
 */
export type TakeOutcome<T> = { kind: 'message'; message: T } | { kind: 'timeout' } | { kind: 'ended' };

export class MessageBacklog<T> {
  private messages: T[] = [];
  private readonly wakers = new Set<() => void>();
  private ended = false;

  get size(): number {
    return this.messages.length;
  }

  push(message: T): void {
    this.messages.push(message);
    this.wake();
  }

  /** No more messages will arrive: readers drain what is there, then get `ended`. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Drops every message and ends the backlog. */
  discard(): void {
    this.messages = [];
    this.end();
  }

  /** Removes and returns the first message matching `predicate`, waiting up to `timeoutMs` for one. */
  async take(predicate: (message: T) => boolean, timeoutMs: number): Promise<TakeOutcome<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex(predicate);
      if (index >= 0) return { kind: 'message', message: this.messages.splice(index, 1)[0] };
      if (this.ended) return { kind: 'ended' };
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { kind: 'timeout' };
      await this.nextArrival(remaining);
    }
  }

  private nextArrival(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wakers.add(done);
    });
  }

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }
}
