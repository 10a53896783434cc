/**
 * The sqlite3 module handed to TypeORM as its driver, minus sqlite3's "verbose" mode.
 *
 * TypeORM's SqliteDriver calls `driver.verbose()` on whatever module it gets. In sqlite3 that call
 * patches every Database and Statement method, process-wide, with a long-stack-trace shim: each
 * statement call then captures a `new Error()` and `util.inspect`s all of its arguments (SQL and
 * parameters), which profiling showed as a large share of a small request's CPU time. Errors keep
 * their message without the shim; only the extra "--> in Database#all(…)" stack lines are gone.
 */
import * as sqlite3 from 'sqlite3';

export const untracedSqlite3 = { ...sqlite3, verbose: (): typeof sqlite3 => sqlite3 };
