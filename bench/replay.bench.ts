/**
 * Replay: `thread/read` of a thread with 10 000 items (100 finished turns × 100 items, written
 * through the server's own repositories), request write → parsed response, median of 15. Floors:
 *  - threadRead10kItemsVsPlainNode (issue 11's target, ≤ 2×): a plain Node child
 *    (floors/thread-read-raw.js) that reads the same rows with raw sqlite3, builds the same JSON
 *    (checked equal to the server's answer) and writes it as one line, read by the same linear
 *    client (JsonlPeer) — serialization and the pipe are on both sides;
 *  - threadRead10kItems (kept for comparison with older runs): the same rows read with raw sqlite3
 *    and JSON-parsed in this process (no serialization, no pipe).
 */
import { isDeepStrictEqual } from 'node:util';
import { join, resolve } from 'node:path';
import { createWorkspace, startAppServer } from './support/app-server-launch';
import { figure, type FigureGroup } from './support/figure';
import { type JsonMessage, JsonlPeer } from './support/jsonl-peer';
import { RawSqlite } from './support/raw-sqlite';
import { buildReplayStore } from './support/replay-store-builder';
import { median, percentile } from './support/stats';

const TURNS = 100;
const ITEMS_PER_TURN = 100;
const WARMUP = 2;
const RUNS = 15;
const PLAIN_NODE_FLOOR = resolve(__dirname, 'floors/thread-read-raw.js');

/** Request write → parsed result, with the same client on both sides. */
async function timedRead(peer: JsonlPeer, id: string, threadId: string): Promise<[number, JsonMessage]> {
  const began = process.hrtime.bigint();
  const result = await peer.call(id, 'thread/read', { threadId });
  return [Number(process.hrtime.bigint() - began) / 1e6, result];
}

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
    const plainNode = JsonlPeer.spawnNode([PLAIN_NODE_FLOOR, store]);
    const db = await RawSqlite.open(store, RawSqlite.READONLY);
    const serverMs: number[] = [];
    const floorMs: number[] = [];
    const plainNodeMs: number[] = [];
    try {
      for (let run = 0; run < WARMUP + RUNS; run += 1) {
        const [elapsedServer, result] = await timedRead(server, `read-${run}`, threadId);
        const items = (result.items as unknown[]).length;
        if (items !== TURNS * ITEMS_PER_TURN) throw new Error(`thread/read returned ${items} items`);
        const [elapsedPlainNode, plainResult] = await timedRead(plainNode, `read-${run}`, threadId);
        // The floor must do the server's job: the same answer, not a cheaper one.
        if (run === 0 && !isDeepStrictEqual(plainResult, result))
          throw new Error('the plain Node floor built a different thread/read result than the server');
        const began = process.hrtime.bigint();
        const rows = await rawRead(db, threadId);
        const elapsedFloor = Number(process.hrtime.bigint() - began) / 1e6;
        if (rows !== items) throw new Error(`raw read returned ${rows} rows`);
        if (run < WARMUP) continue;
        serverMs.push(elapsedServer);
        plainNodeMs.push(elapsedPlainNode);
        floorMs.push(elapsedFloor);
      }
    } finally {
      await db.close();
      await Promise.all([server.close(), plainNode.close()]);
    }
    return {
      threadRead10kItemsVsPlainNode: figure({
        value: median(serverMs),
        floor: median(plainNodeMs),
        unit: 'ms',
        runs: RUNS,
        better: 'lower',
        description: `thread/read of ${TURNS * ITEMS_PER_TURN} items, request → parsed response (linear client), vs a plain Node child reading the same rows with raw sqlite3 and writing the same JSON as one line`,
        details: { serverP90Ms: percentile(serverMs, 90), floorP90Ms: percentile(plainNodeMs, 90) },
        target: { on: 'ratio', bound: 'max', limit: 2 },
      }),
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
