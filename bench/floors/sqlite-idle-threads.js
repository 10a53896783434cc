'use strict';
// Memory floor for 1 000 idle threads: a plain Node process that opens a sqlite3 file (WAL), creates
// the App Server's threads table, inserts N thread rows, reads them back, then reports its peak RSS
// (VmHWM) on stdout as one JSON line and waits for stdin to close.
const { readFileSync } = require('node:fs');
const sqlite3 = require('sqlite3');

const [path, countText] = process.argv.slice(2);
const count = Number(countText);
const db = new sqlite3.Database(path);

function run(sql, params = []) {
  return new Promise((resolve, reject) =>
    db.run(sql, params, (error) => (error ? reject(error) : resolve())),
  );
}
function all(sql, params = []) {
  return new Promise((resolve, reject) =>
    db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))),
  );
}
function kib(name) {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match[1]);
}

(async () => {
  await run('PRAGMA journal_mode = WAL');
  await run(`CREATE TABLE IF NOT EXISTS "threads" ("thread_id" text PRIMARY KEY NOT NULL, "agent_key" text NOT NULL,
    "cwd" text, "metadata_json" text NOT NULL, "created_at" integer NOT NULL, "updated_at" integer NOT NULL,
    "archived_at" integer, "active_turn_id" text)`);
  const now = Date.now();
  for (let i = 0; i < count; i += 1) {
    await run('INSERT INTO "threads" VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)', [
      `thread_${i.toString(16).padStart(32, '0')}`,
      'default',
      '/tmp/workspace',
      '{}',
      now + i,
      now + i,
    ]);
  }
  const rows = await all('SELECT * FROM "threads" ORDER BY "updated_at" DESC');
  process.stdout.write(
    `${JSON.stringify({ rows: rows.length, rssKiB: kib('VmRSS'), peakRssKiB: kib('VmHWM') })}\n`,
  );
  process.stdin.resume();
  process.stdin.on('end', () => db.close(() => process.exit(0)));
})();
