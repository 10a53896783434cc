/** The run's append-only event journal with independent, lossless readers (runtime.md §4 `events()`). */
import { TERMINAL_EVENT_TYPES, type RunEvent } from './events/types';

export class RunJournal {
  private readonly entries: RunEvent[] = [];
  private closed = false;
  private terminal = false;
  private wakeups: Array<() => void> = [];

  /** Appends an event; the journal closes itself after the terminal event. */
  append(event: RunEvent): void {
    if (this.closed) throw new Error('run journal is closed');
    this.entries.push(event);
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

  snapshot(): RunEvent[] {
    return [...this.entries];
  }

  /** A new reader that replays from the first event, then follows live events until the journal closes. */
  reader(): AsyncIterableIterator<RunEvent> {
    let position = 0;
    let finished = false;
    const next = async (): Promise<IteratorResult<RunEvent>> => {
      for (;;) {
        if (finished) return { done: true, value: undefined };
        if (position < this.entries.length) return { done: false, value: this.entries[position++] };
        if (this.closed) {
          finished = true;
          continue;
        }
        await new Promise<void>((resolve) => this.wakeups.push(resolve));
      }
    };
    const iterator: AsyncIterableIterator<RunEvent> = {
      next,
      return: async () => {
        finished = true;
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  private wake(): void {
    const wakeups = this.wakeups;
    this.wakeups = [];
    for (const wakeup of wakeups) wakeup();
  }
}
