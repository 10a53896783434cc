/**
 * Migrating the SQLite store (docs/spec/protocol.md §8.11 step 4 of §12.3). A file without any table yet gets
 * every migration as one script: the statements the migrations' `up` issue, recorded, then TypeORM's
 * own migrations table and rows, run by one sqlite3 `exec` inside the write transaction that found
 * the file empty. TypeORM's runner sends each of those ~30 statements as its own round trip through
 * the driver, which was most of the time a new file took to open (a fresh store is what every
 * `initialize` of a first start waits for). A file with tables goes through TypeORM's runner, as
 * upgrades always did: it is the one that knows which migrations are pending.
 */
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

/** What sqlite3's Database offers beyond TypeORM's query runner: multi-statement scripts. */
interface ScriptConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
}

/** TypeORM's migrations table, as its runner creates it on SQLite (a test compares both). */
const MIGRATIONS_TABLE =
  'CREATE TABLE "migrations" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "timestamp" bigint NOT NULL, "name" varchar NOT NULL)';

/** Runs what `dataSource` (initialized, `migrationsRun` off) has pending. */
export async function runSqliteMigrations(dataSource: DataSource): Promise<void> {
  const script = await newFileScript(dataSource.migrations);
  if (script !== null && (await runOnEmptyFile(dataSource, script))) return;
  await dataSource.runMigrations({ transaction: 'all' });
}

/** null when a migration cannot be recorded (it needs more than `query`): the runner does it then. */
async function newFileScript(migrations: readonly MigrationInterface[]): Promise<string | null> {
  const named = migrations.map((migration) => {
    const name = migration.name ?? migration.constructor.name;
    // TypeORM's rule: the class name ends with a JavaScript timestamp.
    return { migration, name, timestamp: Number.parseInt(name.slice(-13), 10) };
  });
  if (named.some(({ timestamp }) => Number.isNaN(timestamp))) return null;
  named.sort((a, b) => a.timestamp - b.timestamp);
  const statements: string[] = [];
  try {
    for (const { migration } of named) await migration.up(recordingQueryRunner(statements));
  } catch {
    return null;
  }
  return [
    ...statements,
    MIGRATIONS_TABLE,
    ...named.map(
      ({ name, timestamp }) =>
        `INSERT INTO "migrations" ("timestamp", "name") VALUES (${timestamp}, '${name.replaceAll("'", "''")}')`,
    ),
    // SQLite keeps a statement's text up to its `;` as the schema's SQL, the runner's text exactly. (A
    // statement ending in a `--` comment would swallow the `;`: the script then fails, and the runner
    // migrates the file instead.)
  ].join(';\n');
}

/** A query runner whose only method records parameterless statements. */
function recordingQueryRunner(statements: string[]): QueryRunner {
  const runner = {
    query(sql: string, parameters?: unknown[]): Promise<void> {
      if (parameters !== undefined && parameters.length > 0)
        return Promise.reject(new Error('a migration statement with parameters cannot be recorded'));
      statements.push(sql);
      return Promise.resolve();
    },
  };
  return runner as unknown as QueryRunner;
}

/** Runs `script` when the file has no table, inside the transaction that saw it empty; false otherwise. */
async function runOnEmptyFile(dataSource: DataSource, script: string): Promise<boolean> {
  const connection = (dataSource.driver as unknown as { databaseConnection: ScriptConnection })
    .databaseConnection;
  const exec = (sql: string): Promise<void> =>
    new Promise((resolve, reject) => connection.exec(sql, (error) => (error ? reject(error) : resolve())));
  // As TypeORM's runner: foreign keys off while the schema changes. BEGIN IMMEDIATE waits for another
  // process creating the same file, which then leaves tables here and this one to the runner.
  await exec('PRAGMA foreign_keys = OFF; BEGIN IMMEDIATE');
  try {
    const [{ tables }] = (await dataSource.query('SELECT count(*) AS "tables" FROM sqlite_master')) as Array<{
      tables: number;
    }>;
    if (tables > 0) {
      await exec('ROLLBACK');
      return false;
    }
    try {
      await exec(`${script};\nCOMMIT`);
      return true;
    } catch {
      // Refused: the file is empty again, and TypeORM's runner sends the statements one by one and
      // reports the one that fails, if one does.
      await exec('ROLLBACK').catch(() => undefined);
      return false;
    }
  } catch (error) {
    await exec('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await exec('PRAGMA foreign_keys = ON');
  }
}
