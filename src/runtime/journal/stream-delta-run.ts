/**
 * Consecutive stream delta events of one run, stored column-wise (issue 11). A long answer
 * journals one `assistant_delta` per model chunk and the journal must keep every one for the run's
 * life (docs/spec/runtime.md §4 `events()`, §5 `result.events`); as separate objects each cost ~800 bytes
 * (own hidden class, property backing store, a 36-character id, a boxed time). Here an event costs
 * its chunk plus ~40 bytes: the fields every event of the run shares are kept once, the id as its
 * 16 bytes, numbers in typed arrays. `at(i)` rebuilds an event deep-equal to the one appended,
 * with the same key order.
 */
import type { RunEvent } from '../events/types';

const STREAM_DELTA_TYPES: ReadonlySet<string> = new Set(['assistant_delta', 'reasoning_delta']);
/** Per-event numeric fields of the stream delta events (docs/spec/runtime.md §6.2). */
const COUNTER_FIELDS: ReadonlySet<string> = new Set(['content_chars', 'reasoning_chars', 'estimated_tokens']);
const EVENT_ID = /^evt_[0-9a-f]{32}$/;
const ID_BYTES = 16;
const FIRST_CAPACITY = 16;
/** A run never grows past this many events (a new run starts), so growing copies stay small. */
export const MAX_RUN_LENGTH = 4096;

/** Where a key's value comes from when an event is rebuilt. */
const Source = { Shared: 0, EventId: 1, CreatedAt: 2, Delta: 3, Counter: 4 } as const;
type Source = (typeof Source)[keyof typeof Source];

interface Column {
  key: string;
  source: Source;
  /** The value every event of the run has (Source.Shared). */
  shared?: string | number | boolean;
  /** Index into `counters` (Source.Counter). */
  counter?: number;
}

type Primitive = string | number | boolean;
const isPrimitive = (value: unknown): value is Primitive =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function hexValue(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

function sourceOf(key: string, value: unknown): Source | null {
  switch (key) {
    case 'event_id':
      return typeof value === 'string' && EVENT_ID.test(value) ? Source.EventId : null;
    case 'created_at':
      return typeof value === 'number' ? Source.CreatedAt : null;
    case 'delta':
      return typeof value === 'string' ? Source.Delta : null;
    default:
      if (COUNTER_FIELDS.has(key)) return typeof value === 'number' ? Source.Counter : null;
      return isPrimitive(value) ? Source.Shared : null;
  }
}

export class StreamDeltaRun {
  private readonly columns: Column[];
  private ids: Buffer;
  private createdAt: Float64Array;
  private readonly deltas: string[] = [];
  private counters: Float64Array[];
  private count = 0;

  private constructor(columns: Column[]) {
    this.columns = columns;
    this.ids = Buffer.alloc(FIRST_CAPACITY * ID_BYTES);
    this.createdAt = new Float64Array(FIRST_CAPACITY);
    const counterCount = columns.filter((column) => column.source === Source.Counter).length;
    this.counters = Array.from({ length: counterCount }, () => new Float64Array(FIRST_CAPACITY));
  }

  /** A run holding `event`, or null when the event is not a stream delta this form reproduces exactly. */
  static startWith(event: RunEvent): StreamDeltaRun | null {
    if (!STREAM_DELTA_TYPES.has(event.type)) return null;
    const record = event as unknown as Record<string, unknown>;
    const columns: Column[] = [];
    const seen = new Set<Source>();
    let counters = 0;
    for (const key of Object.keys(record)) {
      const value = record[key];
      const source = sourceOf(key, value);
      if (source === null) return null;
      if (source === Source.Shared) columns.push({ key, source, shared: value as Primitive });
      else if (source === Source.Counter) columns.push({ key, source, counter: counters++ });
      else columns.push({ key, source });
      seen.add(source);
    }
    if (!seen.has(Source.EventId) || !seen.has(Source.CreatedAt) || !seen.has(Source.Delta)) return null;
    const run = new StreamDeltaRun(columns);
    run.push(record);
    return run;
  }

  get length(): number {
    return this.count;
  }

  /** Appends `event` when it has this run's keys, in order, and its shared values; false otherwise. */
  tryAppend(event: RunEvent): boolean {
    if (this.count >= MAX_RUN_LENGTH) return false;
    const record = event as unknown as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length !== this.columns.length) return false;
    for (let index = 0; index < keys.length; index += 1) {
      const column = this.columns[index];
      if (keys[index] !== column.key) return false;
      const value = record[column.key];
      if (column.source === Source.Shared) {
        if (value !== column.shared) return false;
      } else if (sourceOf(column.key, value) !== column.source) return false;
    }
    this.push(record);
    return true;
  }

  /** A new object deep-equal to the `index`-th event appended, keys in the same order. */
  at(index: number): RunEvent {
    const event: Record<string, unknown> = {};
    for (const column of this.columns) {
      switch (column.source) {
        case Source.Shared:
          event[column.key] = column.shared;
          break;
        case Source.EventId:
          event[column.key] = `evt_${this.ids.toString('hex', index * ID_BYTES, (index + 1) * ID_BYTES)}`;
          break;
        case Source.CreatedAt:
          event[column.key] = this.createdAt[index];
          break;
        case Source.Delta:
          event[column.key] = this.deltas[index];
          break;
        case Source.Counter:
          event[column.key] = this.counters[column.counter as number][index];
          break;
      }
    }
    return event as unknown as RunEvent;
  }

  private push(record: Record<string, unknown>): void {
    if (this.count === this.createdAt.length) this.grow();
    const index = this.count;
    for (const column of this.columns) {
      const value = record[column.key];
      switch (column.source) {
        case Source.EventId:
          this.writeId(index, value as string);
          break;
        case Source.CreatedAt:
          this.createdAt[index] = value as number;
          break;
        case Source.Delta:
          this.deltas.push(value as string);
          break;
        case Source.Counter:
          this.counters[column.counter as number][index] = value as number;
          break;
        case Source.Shared:
          break;
      }
    }
    this.count += 1;
  }

  private writeId(index: number, id: string): void {
    const base = index * ID_BYTES;
    // `evt_` is 4 characters; the 32 hex digits follow (checked by EVENT_ID).
    for (let byte = 0; byte < ID_BYTES; byte += 1) {
      const at = 4 + byte * 2;
      this.ids[base + byte] = (hexValue(id.charCodeAt(at)) << 4) | hexValue(id.charCodeAt(at + 1));
    }
  }

  private grow(): void {
    const capacity = Math.min(this.createdAt.length * 2, MAX_RUN_LENGTH);
    const ids = Buffer.alloc(capacity * ID_BYTES);
    this.ids.copy(ids);
    this.ids = ids;
    const createdAt = new Float64Array(capacity);
    createdAt.set(this.createdAt);
    this.createdAt = createdAt;
    this.counters = this.counters.map((column) => {
      const grown = new Float64Array(capacity);
      grown.set(column);
      return grown;
    });
  }
}
