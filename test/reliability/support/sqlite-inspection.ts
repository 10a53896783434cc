/** Reads a store file with the plain sqlite3 driver (no TypeORM): integrity and raw rows. */
import sqlite3 from 'sqlite3';

export async function withDatabase<T>(
  path: string,
  work: (query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) => Promise<T>,
): Promise<T> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const handle = new sqlite3.Database(path, sqlite3.OPEN_READWRITE, (error) =>
      error ? reject(error) : resolve(handle),
    );
  });
  const query = (sql: string, params: unknown[] = []) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      db.all(sql, params, (error, rows) =>
        error ? reject(error) : resolve(rows as Record<string, unknown>[]),
      ),
    );
  try {
    return await work(query);
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

/** `PRAGMA integrity_check` rows joined ('ok' when the file is sound). */
export function integrityCheck(path: string): Promise<string> {
  return withDatabase(path, async (query) => {
    const rows = await query('PRAGMA integrity_check');
    return rows.map((row) => String(row.integrity_check)).join('; ');
  });
}
