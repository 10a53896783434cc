/**
 * The sqlite3 module handed to TypeORM as its driver, with two changes.
 *
 * No "verbose" mode: TypeORM's SqliteDriver calls `driver.verbose()` on whatever module it gets. In
 * sqlite3 that call patches every Database and Statement method, process-wide, with a
 * long-stack-trace shim: each statement call then captures a `new Error()` and `util.inspect`s all
 * of its arguments (SQL and parameters), which profiling showed as a large share of a small
 * request's CPU time. Errors keep their message without the shim; only the extra
 * "--> in Database#all(…)" stack lines are gone.
 *
 * A file is in WAL mode, with the busy timeout set, before TypeORM sees it. TypeORM sends
 * `journal_mode = WAL` first and the busy timeout after; when two processes open one new file at
 * once (two servers started together on a fresh store), both read its header and one of them gets
 * SQLITE_BUSY at once, without the busy handler (SQLite's deadlock rule). Here that switch is retried
 * for up to the busy timeout; TypeORM's own PRAGMA then finds the file in WAL mode already.
 */
import * as sqlite3 from 'sqlite3';

type OpenCallback = (error: Error | null) => void;

const WAL_RETRY_MS = 10;

export interface Sqlite3DriverOptions {
  busyTimeoutMs: number;
  wal: boolean;
}

/** The module for TypeORM's `driver` option (typed `any` there). */
export function sqlite3Driver({ busyTimeoutMs, wal }: Sqlite3DriverOptions): object {
  class Database extends sqlite3.Database {
    constructor(filename: string, mode?: number | OpenCallback, callback?: OpenCallback) {
      const callerCallback = typeof mode === 'function' ? mode : callback;
      // sqlite3 emits 'error' only when it was given no callback; this one always is.
      const opened = (error: Error | null): void => {
        if (callerCallback !== undefined) callerCallback(error);
        else if (error !== null) this.emit('error', error);
      };
      const prepare: OpenCallback = (error) => {
        if (error !== null) return opened(error);
        this.configure('busyTimeout', busyTimeoutMs);
        if (!wal) return opened(null);
        switchToWal(this, Date.now() + busyTimeoutMs, opened);
      };
      if (typeof mode === 'number') super(filename, mode, prepare);
      else super(filename, prepare);
    }
  }
  // TypeORM uses what `verbose()` returns: this module again, not sqlite3's.
  const driver = { ...sqlite3, Database, verbose: (): object => driver };
  return driver;
}

function switchToWal(database: sqlite3.Database, deadline: number, done: OpenCallback): void {
  database.run('PRAGMA journal_mode = WAL', (error: Error | null) => {
    const busy = (error as { code?: string } | null)?.code === 'SQLITE_BUSY';
    if (busy && Date.now() < deadline) setTimeout(() => switchToWal(database, deadline, done), WAL_RETRY_MS);
    else done(error);
  });
}
