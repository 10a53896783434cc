/** The run's append-only event journal with independent, lossless readers (docs/spec/runtime.md §4 `events()`). */
import { TERMINAL_EVENT_TYPES, type RunEvent } from './events/types';
import { StreamDeltaRun } from './journal/stream-delta-run';

/**
 * The last events appended are also kept as the objects that were appended, so a reader that keeps
 * up (the usual case) gets them without a rebuild; older stream deltas are rebuilt from their
 * compact run. Either way a reader sees events deep-equal to what was appended.
 */
const RECENT = 256;

/** A journal reader: an event iterator that can also hand over everything it has not read yet. */
export interface RunEventReader extends AsyncIterableIterator<RunEvent> {
  /**
   * The events journaled after the reader's position, up to `max` (below 1 counts as 1), waiting
   * for one; `[]` once the journal closed and everything was read. A consumer that was busy (e.g.
   * waiting for a commit) takes all it missed in one step instead of one promise per event.
   */
  nextBatch(max: number): Promise<RunEvent[]>;
}

export class RunJournal {
  /** Events in order; consecutive stream deltas share one compact run. */
  private readonly entries: Array<RunEvent | StreamDeltaRun> = [];
  private readonly recent: RunEvent[] = new Array<RunEvent>(RECENT);
  private count = 0;
  private closed = false;
  private terminal = false;
  private wakeups: Array<() => void> = [];

  /** Appends an event; the journal closes itself after the terminal event. */
  append(event: RunEvent): void {
    if (this.closed) throw new Error('run journal is closed');
    this.store(event);
    this.recent[this.count % RECENT] = event;
    this.count += 1;
    if (TERMINAL_EVENT_TYPES.includes(event.type)) {
      this.terminal = true;
      this.closed = true;
    }
    this.wake();
  }

  /** Ends every reader once it has read the backlog (the run settled without a terminal event). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake();
  }

  get hasTerminalEvent(): boolean {
    return this.terminal;
  }

  /** Every event journaled so far, in order (rebuilt: the caller owns the array and its objects). */
  snapshot(): RunEvent[] {
    const events: RunEvent[] = [];
    for (const entry of this.entries) {
      if (entry instanceof StreamDeltaRun)
        for (let index = 0; index < entry.length; index += 1) events.push(entry.at(index));
      else events.push(entry);
    }
    return events;
  }

  /** A new reader that replays from the first event, then follows live events until the journal closes. */
  reader(): RunEventReader {
    let position = 0;
    let entry = 0;
    let inner = 0;
    let finished = false;
    // Called only when an event is there: the current run has more, or a later entry exists.
    const take = (): RunEvent => {
      let current = this.entries[entry];
      if (current instanceof StreamDeltaRun && inner === current.length) {
        entry += 1;
        inner = 0;
        current = this.entries[entry];
      }
      let event: RunEvent;
      if (current instanceof StreamDeltaRun) {
        event = position >= this.count - RECENT ? this.recent[position % RECENT] : current.at(inner);
        inner += 1;
      } else {
        event = current;
        entry += 1;
      }
      position += 1;
      return event;
    };
    /** Whether an unread event is there, waiting for one; false once the journal closed and all was read. */
    const unread = async (): Promise<boolean> => {
      for (;;) {
        if (finished) return false;
        if (position < this.count) return true;
        if (this.closed) finished = true;
        else await this.more();
      }
    };
    // Both re-check after waiting: another call on the same reader may have taken the event.
    const next = async (): Promise<IteratorResult<RunEvent>> => {
      while (await unread()) if (position < this.count) return { done: false, value: take() };
      return { done: true, value: undefined };
    };
    const nextBatch = async (max: number): Promise<RunEvent[]> => {
      const batch: RunEvent[] = [];
      const limit = Math.max(1, max);
      while (batch.length === 0 && (await unread()))
        while (position < this.count && batch.length < limit) batch.push(take());
      return batch;
    };
    const iterator: RunEventReader = {
      next,
      nextBatch,
      return: async () => {
        finished = true;
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** Resolves at the next append or when the journal closes. */
  private more(): Promise<void> {
    return new Promise<void>((resolve) => this.wakeups.push(resolve));
  }

  private store(event: RunEvent): void {
    const last = this.entries.at(-1);
    if (last instanceof StreamDeltaRun && last.tryAppend(event)) return;
    this.entries.push(StreamDeltaRun.startWith(event) ?? event);
  }

  private wake(): void {
    const wakeups = this.wakeups;
    this.wakeups = [];
    for (const wakeup of wakeups) wakeup();
  }
}
