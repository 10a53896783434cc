/**
 * The store already holds a running turn for the thread (docs/spec/protocol.md §8.2), possibly written by
 * another server process on the same store. Every store implementation rejects `beginTurn` with
 * it; it is the domain's ThreadAlreadyHasActiveTurn, so a turn start answers -32602.
 */
import { DOMAIN_ERROR_MESSAGES, DomainError } from '../domain-error';

export class ThreadHasActiveTurnError extends DomainError {
  constructor(
    readonly threadId: string,
    options?: { cause?: unknown },
  ) {
    super('ThreadAlreadyHasActiveTurn', DOMAIN_ERROR_MESSAGES.ThreadAlreadyHasActiveTurn);
    this.name = 'ThreadHasActiveTurnError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
