/**
 * The hot-read port of the shared repositories: all rows of one SQL statement written with `?`
 * placeholders. SQLite runs it as a cached prepared statement on its one connection; PostgreSQL
 * numbers the placeholders and runs it on the pool. Only called inside StoreExecutor operations.
 */
export interface RowReader {
  all<Row>(sql: string, parameters: readonly unknown[]): Promise<Row[]>;
}
