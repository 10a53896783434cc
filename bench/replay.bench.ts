/**
 * Replay: `thread/read` of a thread with 10 000 items (100 finished turns × 100 items, written
 * through the server's own repositories), request write → parsed response, median of 15, against
 * the same rows (thread, turns, items) read with raw sqlite3 calls and JSON-parsed in this process.
 */
import { join } from 'node:path';
import { createWorkspace, startAppServer } from './support/app-server-launch';
import { figure, type FigureGroup } from './support/figure';
import { RawSqlite } from './support/raw-sqlite';
import { buildReplayStore } from './support/replay-store-builder';
import { median, percentile } from './support/stats';

const TURNS = 100;
const ITEMS_PER_TURN = 100;
const WARMUP = 2;
const RUNS = 15;

async function rawRead(db: RawSqlite, threadId: string): Promise<number> {
  const [thread] = await db.all<{ metadata_json: string }>('SELECT * FROM "threads" WHERE "thread_id" = ?', [
    threadId,
  ]);
  JSON.parse(thread.metadata_json);
  const turns = await db.all<{ input_json: string; result_json: string }>(
    'SELECT * FROM "turns" WHERE "thread_id" = ? ORDER BY "started_at", rowid',
    [threadId],
  );
  for (const turn of turns) {
    JSON.parse(turn.input_json);
    JSON.parse(turn.result_json);
  }
  const items = await db.all<{ item_json: string }>(
    'SELECT "item_json" FROM "items" WHERE "thread_id" = ? ORDER BY "position"',
    [threadId],
  );
  return items.map((row) => JSON.parse(row.item_json) as unknown).length;
}

export async function runReplayBenchmark(): Promise<FigureGroup> {
  const workspace = createWorkspace();
  const store = join(workspace.dir, 'replay.sqlite');
  try {
    const threadId = await buildReplayStore(store, TURNS, ITEMS_PER_TURN);
    const server = await startAppServer(workspace, store);
    const db = await RawSqlite.open(store, RawSqlite.READONLY);
    const serverMs: number[] = [];
    const floorMs: number[] = [];
    try {
      for (let run = 0; run < WARMUP + RUNS; run += 1) {
        let began = process.hrtime.bigint();
        const result = await server.call(`read-${run}`, 'thread/read', { threadId });
        const elapsedServer = Number(process.hrtime.bigint() - began) / 1e6;
        const items = (result.items as unknown[]).length;
        if (items !== TURNS * ITEMS_PER_TURN) throw new Error(`thread/read returned ${items} items`);
        began = process.hrtime.bigint();
        const rows = await rawRead(db, threadId);
        const elapsedFloor = Number(process.hrtime.bigint() - began) / 1e6;
        if (rows !== items) throw new Error(`raw read returned ${rows} rows`);
        if (run < WARMUP) continue;
        serverMs.push(elapsedServer);
        floorMs.push(elapsedFloor);
      }
    } finally {
      await db.close();
      await server.close();
    }
    return {
      threadRead10kItems: figure({
        value: median(serverMs),
        floor: median(floorMs),
        unit: 'ms',
        runs: RUNS,
        better: 'lower',
        description: `thread/read of ${TURNS * ITEMS_PER_TURN} items (request → parsed response) vs raw sqlite3 SELECTs + JSON.parse of the same rows`,
        details: { serverP90Ms: percentile(serverMs, 90), floorP90Ms: percentile(floorMs, 90) },
      }),
    };
  } finally {
    workspace.dispose();
  }
}
