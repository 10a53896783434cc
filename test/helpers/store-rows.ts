/**
 * Reads a running server's store from a connection of its own — a sqlite file or a postgres://
 * URL (the `--store` value of E2eSandbox.storePath) — to see what is committed, not what the
 * server says (docs/spec/protocol.md §8.5: items are written at creation).
 */
import { Client } from 'pg';
import * as sqlite3 from 'sqlite3';

/** Rows of the `items` table (§8.11) of a thread. */
export function countItemRows(store: string, threadId: string): Promise<number> {
  return /^postgres(ql)?:\/\//.test(store)
    ? countPostgresItemRows(store, threadId)
    : countSqliteItemRows(store, threadId);
}

async function countPostgresItemRows(url: string, threadId: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM items WHERE thread_id = $1',
      [threadId],
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

function countSqliteItemRows(storeFile: string, threadId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(storeFile, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      db.get(
        'SELECT count(*) AS n FROM items WHERE thread_id = ?',
        [threadId],
        (error, row: { n: number }) => {
          db.close();
          if (error) reject(error);
          else resolve(row.n);
        },
      );
    });
  });
}
