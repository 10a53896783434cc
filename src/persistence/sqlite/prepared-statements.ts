/**
 * Hot reads as statements prepared once on TypeORM's sqlite3 connection and reused.
 *
 * Why not the entity manager: a TypeORM `find` builds its SQL and hydrates entities on every call
 * (~250 µs for a one-row lookup, measured), and even `manager.query` prepares and finalizes a fresh
 * statement around each run (~100 µs); running a cached statement took ~20 µs. The statements share
 * the one connection with TypeORM, so they only run inside StoreExecutor operations, like every
 * other statement, and are finalized before the connection closes.
 */
import type { Database, Statement } from 'sqlite3';
import { ConnectionIsNotSetError, type DataSource, QueryFailedError } from 'typeorm';
import type { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';

export class PreparedStatements {
  private readonly statements = new Map<string, Promise<Statement>>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * All result rows of `sql` with `parameters` bound. Logged, and failing, like TypeORM's own
   * queries: a driver error becomes a QueryFailedError carrying the driver's message.
   */
  async all<Row>(sql: string, parameters: readonly unknown[]): Promise<Row[]> {
    const connection = this.connection();
    const values = [...parameters];
    const logger = this.dataSource.logger;
    logger.logQuery(sql, values);
    try {
      const statement = await this.prepare(connection, sql);
      // Always run to completion (never `get`): an unfinished statement keeps its WAL read snapshot.
      return await new Promise<Row[]>((resolve, reject) => {
        statement.all<Row>(values, (error, rows) => (error ? reject(error) : resolve(rows)));
      });
    } catch (error) {
      // sqlite3 rejects with Error objects, though not always of this realm (e.g. under Jest).
      const failure = new QueryFailedError(sql, values, error as Error);
      logger.logQueryError(failure.message, sql, values);
      throw failure;
    }
  }

  /** Finalizes every cached statement (sqlite refuses to close a connection with live statements). */
  async finalizeAll(): Promise<void> {
    const prepared = [...this.statements.values()];
    this.statements.clear();
    await Promise.all(
      prepared.map((statement) =>
        statement.then(
          (ready) => new Promise<void>((resolve) => ready.finalize(() => resolve())),
          () => undefined,
        ),
      ),
    );
  }

  private prepare(connection: Database, sql: string): Promise<Statement> {
    const cached = this.statements.get(sql);
    if (cached !== undefined) return cached;
    const prepared = new Promise<Statement>((resolve, reject) => {
      const statement = connection.prepare(sql, (error) => (error ? reject(error) : resolve(statement)));
    });
    this.statements.set(sql, prepared);
    prepared.catch(() => this.statements.delete(sql));
    return prepared;
  }

  private connection(): Database {
    if (!this.dataSource.isInitialized) {
      // What TypeORM itself throws for a query on a closed data source.
      throw new ConnectionIsNotSetError('sqlite');
    }
    return (this.dataSource.driver as SqliteDriver).databaseConnection as Database;
  }
}
