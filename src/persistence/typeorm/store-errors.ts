/** Errors thrown by the store. The server maps StoreError to -32603 with its message (docs/spec/protocol.md §3.0). */
import { DomainError } from '../../core/domain-error';
import { causeMessage } from '../../runtime/cause-message';

/** A database failure; `message` is the cause's message, the cause itself is kept for diagnostics. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }

  /** Wraps anything thrown by the driver into a StoreError carrying the cause's message. */
  static from(cause: unknown): StoreError {
    if (cause instanceof StoreError) return cause;
    return new StoreError(causeMessage(cause), { cause });
  }
}

/**
 * A `thread/list` cursor that is not a `nextCursor` of this store: the core's InvalidCursor, which
 * v1 answers as `/cursor` `is invalid` (docs/spec/protocol.md §3.6).
 */
export class InvalidThreadCursorError extends DomainError {
  constructor() {
    super('InvalidCursor', 'is invalid');
    this.name = 'InvalidThreadCursorError';
  }
}

export { ThreadHasActiveTurnError } from '../../core/store/turn-conflict';

/** A violation of idx_turns_one_running_per_thread, as SQLite and as PostgreSQL word it. */
export function isRunningTurnConflict(error: unknown): boolean {
  return (
    error instanceof Error &&
    /UNIQUE constraint failed: turns\.thread_id|"idx_turns_one_running_per_thread"/.test(error.message)
  );
}
