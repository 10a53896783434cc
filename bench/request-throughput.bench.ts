/**
 * Request throughput over stdio with 1 000 requests in flight: a round writes 1 000 requests at
 * once; a request answered `-32001` (the server's FIFO holds 128, docs/spec/protocol.md §1.8) is retried the
 * way §1.8 tells clients to, with exponential backoff (1 ms, doubling, capped at 32 ms), until every
 * one has a result. Figure: results per second of a round (median of the measured rounds). Floor:
 * the same rounds against a plain Node JSONL echo (which never rejects).
 * threadRead10Items (issue 41, ≥ 0.5×): `thread/read` of a thread of 10 items (file store written
 * through the server's own repositories, support/replay-store-builder.ts), the same rounds, against
 * a fair floor: a plain Node child (floors/thread-read-raw.js) reading the same rows with raw
 * sqlite3 and writing the same result JSON lines (its answer checked equal to the server's).
 */
import { isDeepStrictEqual } from 'node:util';
import { join, resolve } from 'node:path';
import { createWorkspace, startAppServer, startThread } from './support/app-server-launch';
import { figure, type FigureGroup } from './support/figure';
import { type JsonMessage, JsonlPeer } from './support/jsonl-peer';
import { buildReplayStore } from './support/replay-store-builder';
import { median } from './support/stats';

const IN_FLIGHT = 1_000;
const WARMUP_ROUNDS = 2;
const ROUNDS = 7;
const OVERLOADED = -32001;
const FIRST_BACKOFF_MS = 1;
const MAX_BACKOFF_MS = 32;
const ECHO_SCRIPT = resolve(__dirname, 'floors/jsonl-echo.js');
const THREAD_READ_FLOOR_SCRIPT = resolve(__dirname, 'floors/thread-read-raw.js');
const ITEMS_PER_THREAD = 10;

interface RoundResult {
  requestsPerSecond: number;
  overloadRejections: number;
}

/** One round: 1 000 requests written at once; rejected ones resent until all have a result. */
function runRound(peer: JsonlPeer, round: number, method: string, params: unknown): Promise<RoundResult> {
  const line = (id: string) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
  const ids = Array.from({ length: IN_FLIGHT }, (_, index) => `r${round}-${index}`);
  const pending = new Set(ids);
  const attempts = new Map<string, number>();
  let overloadRejections = 0;
  return new Promise((resolveRound, reject) => {
    const began = process.hrtime.bigint();
    const stop = peer.onMessage((message: JsonMessage) => {
      const id = message.id;
      if (typeof id !== 'string' || !pending.has(id)) return;
      const error = message.error as { code?: number } | undefined;
      if (error?.code === OVERLOADED) {
        overloadRejections += 1;
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        const backoffMs = Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
        setTimeout(() => peer.sendText(line(id)), backoffMs);
        return;
      }
      if (error) {
        stop();
        reject(new Error(`${method} failed: ${JSON.stringify(message)}`));
        return;
      }
      pending.delete(id);
      if (pending.size > 0) return;
      stop();
      const seconds = Number(process.hrtime.bigint() - began) / 1e9;
      resolveRound({ requestsPerSecond: IN_FLIGHT / seconds, overloadRejections });
    });
    peer.sendText(ids.map(line).join(''));
  });
}

async function measure(
  peer: JsonlPeer,
  method: string,
  params: unknown,
): Promise<{ perSecond: number; overloads: number }> {
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) await runRound(peer, round, method, params);
  const results: RoundResult[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    results.push(await runRound(peer, 100 + round, method, params));
  }
  return {
    perSecond: median(results.map((result) => result.requestsPerSecond)),
    overloads: median(results.map((result) => result.overloadRejections)),
  };
}

/** thread/read of a 10-item thread on a file store, through the server and through the raw floor. */
async function measureTenItemReads(): Promise<{
  server: { perSecond: number; overloads: number };
  floor: { perSecond: number; overloads: number };
}> {
  const workspace = createWorkspace();
  const store = join(workspace.dir, 'ten-items.sqlite');
  try {
    const threadId = await buildReplayStore(store, 1, ITEMS_PER_THREAD);
    const server = await startAppServer(workspace, store);
    const floor = JsonlPeer.spawnNode([THREAD_READ_FLOOR_SCRIPT, store]);
    try {
      const [served, raw] = await Promise.all([
        server.call('check', 'thread/read', { threadId }),
        floor.call('check', 'thread/read', { threadId }),
      ]);
      if ((served.items as unknown[]).length !== ITEMS_PER_THREAD)
        throw new Error(`thread/read returned ${(served.items as unknown[]).length} items`);
      // The floor must do the server's job: the same answer, not a cheaper one.
      if (!isDeepStrictEqual(served, raw))
        throw new Error('the thread/read floor built a different result than the server');
      return {
        server: await measure(server, 'thread/read', { threadId }),
        floor: await measure(floor, 'thread/read', { threadId }),
      };
    } finally {
      await Promise.all([server.close(), floor.close()]);
    }
  } finally {
    workspace.dispose();
  }
}

export async function runRequestThroughputBenchmark(): Promise<FigureGroup> {
  const workspace = createWorkspace();
  const server = await startAppServer(workspace, ':memory:');
  const echo = JsonlPeer.spawnNode([ECHO_SCRIPT]);
  try {
    const threadId = await startThread(server, workspace, 'thread');
    const modelList = await measure(server, 'model/list', {});
    const threadRead = await measure(server, 'thread/read', { threadId });
    const floor = await measure(echo, 'model/list', {});
    const tenItems = await measureTenItemReads();
    const describe = (method: string) =>
      `${method} results/s over stdio with ${IN_FLIGHT} requests in flight (-32001 retried with exponential backoff), vs a plain Node JSONL echo`;
    return {
      modelList: figure({
        value: modelList.perSecond,
        floor: floor.perSecond,
        unit: 'req/s',
        runs: ROUNDS,
        better: 'higher',
        description: describe('model/list'),
        details: { medianOverloadRejectionsPerRound: modelList.overloads },
        target: { on: 'ratio', bound: 'min', limit: 0.3 },
      }),
      threadRead: figure({
        value: threadRead.perSecond,
        floor: floor.perSecond,
        unit: 'req/s',
        runs: ROUNDS,
        better: 'higher',
        description: describe('thread/read (empty thread)'),
        details: { medianOverloadRejectionsPerRound: threadRead.overloads },
      }),
      threadRead10Items: figure({
        value: tenItems.server.perSecond,
        floor: tenItems.floor.perSecond,
        unit: 'req/s',
        runs: ROUNDS,
        better: 'higher',
        description: `thread/read (${ITEMS_PER_THREAD} items, file store) results/s over stdio with ${IN_FLIGHT} requests in flight (-32001 retried with exponential backoff), vs a plain Node child reading the same rows with raw sqlite3 and writing the same JSON lines`,
        details: { medianOverloadRejectionsPerRound: tenItems.server.overloads },
        target: { on: 'ratio', bound: 'min', limit: 0.5 },
      }),
    };
  } finally {
    await Promise.all([server.close(), echo.close()]);
    workspace.dispose();
  }
}
