/**
 * The RunEventStore contract (docs/spec/runtime.md §7). It sits with the events, below the stores
 * that implement it (../event-store), because the run's event sink writes to whichever store the
 * host passes.
 */
import type { RunEvent } from './types';

export type EventStoreErrorCode =
  'event_store_io_error' | 'event_store_serialization_error' | 'event_store_corrupt_line';

export class EventStoreError extends Error {
  constructor(
    message: string,
    readonly code: EventStoreErrorCode,
    readonly lineNumber?: number,
  ) {
    super(message);
    this.name = 'EventStoreError';
  }
}

export interface RunEventStore {
  /** Throws EventStoreError. */
  append(event: RunEvent): Promise<void>;
  replay(query: { runId: string; includeChildren?: boolean }): AsyncIterable<RunEvent | EventStoreError>;
}
