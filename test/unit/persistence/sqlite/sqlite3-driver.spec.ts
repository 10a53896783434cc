/** The sqlite3 module the store hands TypeORM (src/persistence/sqlite/sqlite3-driver.ts). */
import { mkdirSync } from 'node:fs';
import type * as sqlite3 from 'sqlite3';
import { sqlite3Driver } from '../../../../src/persistence/sqlite/sqlite3-driver';
import { makeTempDir, type TempDir } from '../store-test-support';

type Driver = typeof sqlite3;

function pragma(database: sqlite3.Database, name: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    database.get(`PRAGMA ${name}`, (error: Error | null, row: unknown) =>
      error ? reject(error) : resolve(row),
    ),
  );
}

describe('sqlite3Driver', () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => dir.remove());

  it('hands TypeORM itself from verbose(), so its Database is the one TypeORM constructs', () => {
    const driver = sqlite3Driver({ busyTimeoutMs: 1234, wal: true }) as Driver;
    expect(driver.verbose()).toBe(driver);
  });

  it('a file is in WAL mode with the busy timeout set when the open callback runs', async () => {
    const { Database } = sqlite3Driver({ busyTimeoutMs: 1234, wal: true }) as Driver;
    const database = await new Promise<sqlite3.Database>((resolve, reject) => {
      const opened: sqlite3.Database = new Database(dir.file('wal.sqlite'), (error: Error | null) =>
        error ? reject(error) : resolve(opened),
      );
    });
    try {
      expect(await pragma(database, 'journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(await pragma(database, 'busy_timeout')).toEqual({ timeout: 1234 });
    } finally {
      await new Promise((resolve) => database.close(resolve));
    }
  });

  it('without a callback, a failed open is emitted as an error event', async () => {
    const { Database } = sqlite3Driver({ busyTimeoutMs: 100, wal: true }) as Driver;
    const path = dir.file('a-directory');
    mkdirSync(path);
    const database = new Database(path);
    await expect(new Promise((_resolve, reject) => database.on('error', reject))).rejects.toThrow(
      /SQLITE_CANTOPEN/,
    );
  });
});
