'use strict';
// thread/read floor: a plain Node JSONL process over the same store file. For each request
// {"id", "params": {"threadId"}} it reads the thread, its turns and its items with raw sqlite3
// SELECTs, builds the same result JSON the App Server returns for thread/read (docs/spec/protocol.md §3.5:
// thread, turns in creation order, items in creation order) and writes the response as one line.
// No framework, no validation, no queue. Usage: node thread-read-raw.js <store.sqlite>
const sqlite3 = require('sqlite3');
const { onStdinRequests } = require('./stdin-requests');

const db = new sqlite3.Database(process.argv[2], sqlite3.OPEN_READONLY);

function all(sql, params) {
  return new Promise((resolve, reject) =>
    db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))),
  );
}

async function threadRead(threadId) {
  const [row] = await all('SELECT * FROM "threads" WHERE "thread_id" = ?', [threadId]);
  const turns = await all('SELECT * FROM "turns" WHERE "thread_id" = ? ORDER BY "started_at", rowid', [
    threadId,
  ]);
  const items = await all('SELECT "item_json" FROM "items" WHERE "thread_id" = ? ORDER BY "created_seq"', [
    threadId,
  ]);
  return {
    thread: {
      threadId: row.thread_id,
      agentKey: row.agent_key,
      cwd: row.cwd,
      status: row.archived_at !== null ? 'archived' : row.active_turn_id !== null ? 'running' : 'idle',
      metadata: JSON.parse(row.metadata_json),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      archivedAt: row.archived_at,
      forkedFrom:
        row.forked_from_thread_id != null && row.forked_from_turn_id != null
          ? { threadId: row.forked_from_thread_id, turnId: row.forked_from_turn_id }
          : null,
    },
    turns: turns.map((turn) => ({
      turnId: turn.turn_id,
      threadId: turn.thread_id,
      runId: turn.run_id,
      status: turn.status,
      startedAt: turn.started_at,
      completedAt: turn.completed_at,
      input: JSON.parse(turn.input_json),
      result: JSON.parse(turn.result_json),
    })),
    items: items.map((item) => JSON.parse(item.item_json)),
  };
}

onStdinRequests(
  (request) =>
    void threadRead(request.params.threadId).then((result) =>
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n`),
    ),
  () => db.close(() => process.exit(0)),
);
