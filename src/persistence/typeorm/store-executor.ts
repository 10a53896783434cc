/**
 * Serializes every store operation on the DataSource.
 *
 * TypeORM's sqlite driver shares ONE connection (one query runner) between all callers, so two
 * overlapping transactions would interleave their statements inside a single BEGIN…COMMIT. Running
 * operations one at a time keeps each transaction isolated; sqlite3 does the I/O on libuv threads,
 * so the event loop stays free while a statement runs.
 *
 * Transactions are driven here, not by `DataSource.transaction`: when COMMIT fails (SQLITE_FULL,
 * SQLITE_IOERR) SQLite may already have rolled back, TypeORM's ROLLBACK then fails with "no
 * transaction is active" and its query runner stays marked "in transaction" — every later
 * transaction became a SAVEPOINT that was never committed. Here a failed transaction always ends
 * with the connection back in autocommit mode, so the store works again once the cause is gone.
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { RowReader } from './row-reader';
import { StoreError } from './store-errors';
import { DomainError } from '../../core/domain-error';

export class StoreExecutor {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: RowReader,
    /** SQLite: `BEGIN IMMEDIATE` (see transaction); PostgreSQL: `BEGIN`. */
    private readonly beginSql: string = 'BEGIN IMMEDIATE',
  ) {}

  /** Runs `work` alone on the connection (no transaction). */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => work(this.dataSource.manager));
  }

  /** Runs `work` alone on the connection with the cached prepared statements (hot reads). */
  read<T>(work: (statements: RowReader) => Promise<T>): Promise<T> {
    return this.enqueue(() => work(this.statements));
  }

  /**
   * Runs `work` alone on the connection inside one transaction. BEGIN IMMEDIATE takes the write
   * lock up front (waiting up to the busy timeout), so another process on the same file cannot make
   * this transaction fail halfway with SQLITE_BUSY.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(async () => {
      // The sqlite driver hands out its one shared query runner (releasing it is a no-op); the
      // postgres driver takes a pool client for it, given back on release.
      const runner = this.dataSource.createQueryRunner();
      try {
        await runner.query(this.beginSql);
        try {
          const result = await work(runner.manager);
          await runner.query('COMMIT');
          return result;
        } catch (error) {
          // Fails harmlessly ("no transaction is active") when SQLite already rolled back itself.
          await runner.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      } finally {
        await runner.release();
      }
    });
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
      // The domain's refusals (bad cursor, running-turn conflict) reach the caller as they are.
      throw error instanceof DomainError ? error : StoreError.from(error);
    });
    // The chain must survive failures: the next operation waits for settlement, not success.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
