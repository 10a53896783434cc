/**
 * A thread's ordered event log, read by each subscriber through its own cursor. Appending never
 * waits for a reader: a reader that stalls only keeps the events it has not read yet alive (shared
 * by every reader, never copied per reader), and events every open cursor has passed are dropped.
 * With no cursor open nothing is retained — a new reader starts from a snapshot plus a cursor
 * opened at the end.
 */
export class EventCursor<E> {
  private closed = false;

  constructor(
    private readonly log: ThreadEventLog<E>,
    /** Sequence number of the next event this cursor reads. */
    public position: number,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** The next event, advancing the cursor; undefined at the end of the log or once closed. */
  next(): E | undefined {
    if (this.closed) return undefined;
    const event = this.log.at(this.position);
    if (event === undefined) return undefined;
    this.position += 1;
    this.log.released();
    return event;
  }

  /** Stops reading; the log forgets what only this cursor still needed. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.log.detach(this);
  }
}

/** Dropped events are compacted away once they are this many and at least half of the array. */
const COMPACT_AT = 1024;

export class ThreadEventLog<E> {
  /** Retained events; `events[offset]` has sequence number `first`. */
  private events: E[] = [];
  private offset = 0;
  private first = 0;
  private readonly cursors = new Set<EventCursor<E>>();

  /** Sequence number the next appended event gets. */
  get end(): number {
    return this.first + this.events.length - this.offset;
  }

  /** Events kept for cursors that have not read them yet. */
  get retained(): number {
    return this.events.length - this.offset;
  }

  get openCursors(): number {
    return this.cursors.size;
  }

  append(event: E): number {
    const sequence = this.end;
    if (this.cursors.size === 0) this.first += 1;
    else this.events.push(event);
    return sequence;
  }

  /** A cursor at the end of the log: it reads what is appended from now on. */
  openCursor(): EventCursor<E> {
    const cursor = new EventCursor(this, this.end);
    this.cursors.add(cursor);
    return cursor;
  }

  /** The retained event with this sequence number. */
  at(sequence: number): E | undefined {
    const index = sequence - this.first + this.offset;
    return index >= this.offset && index < this.events.length ? this.events[index] : undefined;
  }

  /** @internal A cursor moved: drop what every cursor has passed. */
  released(): void {
    let oldest = this.end;
    for (const cursor of this.cursors) oldest = Math.min(oldest, cursor.position);
    const passed = oldest - this.first;
    if (passed <= 0) return;
    // Let go of the events themselves at once; the array slots are compacted in bulk.
    for (let index = this.offset; index < this.offset + passed; index += 1)
      this.events[index] = undefined as E;
    this.offset += passed;
    this.first = oldest;
    if (this.offset >= COMPACT_AT && this.offset * 2 >= this.events.length) {
      this.events = this.events.slice(this.offset);
      this.offset = 0;
    }
  }

  /** @internal */
  detach(cursor: EventCursor<E>): void {
    this.cursors.delete(cursor);
    if (this.cursors.size === 0) {
      this.first = this.end;
      this.events = [];
      this.offset = 0;
    } else {
      this.released();
    }
  }
}
