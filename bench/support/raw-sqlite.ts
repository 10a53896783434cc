/** Promise wrappers over the plain `sqlite3` driver: the floors talk to SQLite without TypeORM. */
import sqlite3 from 'sqlite3';

export class RawSqlite {
  private constructor(private readonly db: sqlite3.Database) {}

  static open(path: string, mode: number = sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE): Promise<RawSqlite> {
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, mode, (error) =>
        error ? reject(error) : resolve(new RawSqlite(db)),
      );
    });
  }

  static get READONLY(): number {
    return sqlite3.OPEN_READONLY;
  }

  all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) =>
      this.db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))),
    );
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) =>
      this.db.run(sql, params, (error) => (error ? reject(error) : resolve())),
    );
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.db.exec(sql, (error) => (error ? reject(error) : resolve())),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}
