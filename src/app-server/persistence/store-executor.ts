/**
 * Serializes every store operation on the DataSource.
 *
 * TypeORM's sqlite driver shares ONE connection (one query runner) between all callers, so two
 * overlapping transactions would interleave their statements inside a single BEGIN…COMMIT. Running
 * operations one at a time keeps each transaction isolated; sqlite3 does the I/O on libuv threads,
 * so the event loop stays free while a statement runs.
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { PreparedStatements } from './prepared-statements';
import { InvalidThreadCursorError, StoreError } from './store-errors';

export class StoreExecutor {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
  ) {}

  /** Runs `work` alone on the connection (no transaction). */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => work(this.dataSource.manager));
  }

  /** Runs `work` alone on the connection with the cached prepared statements (hot reads). */
  read<T>(work: (statements: PreparedStatements) => Promise<T>): Promise<T> {
    return this.enqueue(() => work(this.statements));
  }

  /** Runs `work` alone on the connection inside one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => this.dataSource.transaction(work));
  }

  /** Resolves once every operation queued so far has settled. */
  async drain(): Promise<void> {
    await this.tail.then(
      () => undefined,
      () => undefined,
    );
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work).catch((error: unknown) => {
      throw error instanceof InvalidThreadCursorError ? error : StoreError.from(error);
    });
    // The chain must survive failures: the next operation waits for settlement, not success.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
