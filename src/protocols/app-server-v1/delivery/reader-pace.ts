/**
 * When a thread's turn forwarding pauses (docs/spec/protocol.md §1.8 "background turn forwarding pauses
 * (runtime events keep accumulating in the run's journal)"). With several readers per thread the
 * pause follows the fastest one: a stalled reader never stalls the turn while another keeps up
 * (spec-interpretations §1.8), yet when every reader lags the backlog stays in the run's compact
 * journal instead of growing the thread's log by one notification object per event.
 */

/** Forwarding waits once every open reader has at least this many notifications still to take. */
export const PACE_PAUSE_AT = 1024;
/** …and goes on once one of them is down to this many (so it does not wake for every line). */
export const PACE_RESUME_AT = 256;

export interface PacedReader {
  readonly isClosed: boolean;
  /** Notifications due to (or held for) this reader and not yet taken. */
  readonly backlog: number;
}

const NOW: Promise<void> = Promise.resolve();

export class ReaderPace {
  private waiters: Array<() => void> = [];

  constructor(private readonly readers: () => Iterable<PacedReader>) {}

  /** Settles at once unless every open reader lags; then once one has caught up (see `check`). */
  wait(): Promise<void> {
    if (!this.everyReaderHas(PACE_PAUSE_AT)) return NOW;
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** A reader took a notification, came or went: resume the waiters once one is close enough. */
  check(): void {
    if (this.waiters.length === 0 || this.everyReaderHas(PACE_RESUME_AT + 1)) return;
    this.releaseAll();
  }

  /** No readers any more (the thread's channel is gone): nothing to wait for. */
  releaseAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** True when there is an open reader and each open reader has at least `backlog` to take. */
  private everyReaderHas(backlog: number): boolean {
    let open = false;
    for (const reader of this.readers()) {
      if (reader.isClosed) continue;
      if (reader.backlog < backlog) return false;
      open = true;
    }
    return open;
  }
}
