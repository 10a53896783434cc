/** Where a run's events go: the optional event store first, then the journal (docs/spec/runtime.md §7). */
import type { RunEventStore } from './run-event-store';
import type { RunJournal } from '../run-journal';
import { buildRunEvent, type RunEventScope } from './run-event-factory';
import type { RunEvent, RunEventPayload } from './types';
import { causeMessage } from '../cause-message';

export interface RunEventSinkOptions {
  store?: RunEventStore;
  failClosed?: boolean;
  /** Receives fail-open warning lines; defaults to stderr. */
  warn?: (line: string) => void;
  /**
   * Sees each event as it is emitted, before it is stored: the run's spans and metrics
   * (docs/spec/observability.md §2) are made from it.
   */
  observe?: (payload: RunEventPayload) => void;
}

export class RunEventSink {
  /** The cycle stamped on the envelope of the events emitted from now on (0 = none). */
  cycleIndex = 0;
  private pending: Promise<void> = Promise.resolve();
  private failure: string | null = null;
  private readonly warn: (line: string) => void;

  constructor(
    private readonly scope: RunEventScope,
    private readonly journal: RunJournal,
    private readonly options: RunEventSinkOptions = {},
  ) {
    this.warn = options.warn ?? ((line) => process.stderr.write(line + '\n'));
  }

  /** The fail-closed store failure (`run event store append failed: …`), once one occurred. */
  get storeFailure(): string | null {
    return this.failure;
  }

  /**
   * Builds the event now and writes it after every earlier event, so the journal keeps production
   * order even when a store append is slow. Resolves once the event was written (or dropped).
   */
  emit(payload: RunEventPayload, metadata?: Record<string, unknown>): Promise<void> {
    const event = buildRunEvent(this.scope, payload, { cycleIndex: this.cycleIndex, metadata });
    this.options.observe?.(payload);
    if (!this.options.store) {
      this.journalEvent(event);
      return this.pending;
    }
    this.pending = this.pending.then(() => this.storeThenJournal(event));
    return this.pending;
  }

  /** Resolves when every emitted event has been written. */
  flush(): Promise<void> {
    return this.pending;
  }

  private journalEvent(event: RunEvent): void {
    if (this.failure === null) this.journal.append(event);
  }

  private async storeThenJournal(event: RunEvent): Promise<void> {
    if (this.failure !== null || !this.options.store) return;
    try {
      await this.options.store.append(event);
    } catch (error) {
      const message = `run event store append failed: ${causeMessage(error)}`;
      if (this.options.failClosed) {
        this.failure = message;
        return;
      }
      this.warn(`warning: ${message}`);
    }
    this.journalEvent(event);
  }
}
