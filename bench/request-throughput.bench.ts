/**
 * Request throughput over stdio with 1 000 requests in flight: a round writes 1 000 requests at
 * once; a request answered `-32001` (the server's FIFO holds 128, docs/spec/protocol.md §1.8) is retried the
 * way §1.8 tells clients to, with exponential backoff (1 ms, doubling, capped at 32 ms), until every
 * one has a result. Figure: results per second of a round (median of the measured rounds). Floor:
 * the same rounds against a plain Node JSONL echo (which never rejects).
 */
import { resolve } from 'node:path';
import { createWorkspace, startAppServer, startThread } from './support/app-server-launch';
import { figure, type FigureGroup } from './support/figure';
import { type JsonMessage, JsonlPeer } from './support/jsonl-peer';
import { median } from './support/stats';

const IN_FLIGHT = 1_000;
const WARMUP_ROUNDS = 2;
const ROUNDS = 7;
const OVERLOADED = -32001;
const FIRST_BACKOFF_MS = 1;
const MAX_BACKOFF_MS = 32;
const ECHO_SCRIPT = resolve(__dirname, 'floors/jsonl-echo.js');

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

export async function runRequestThroughputBenchmark(): Promise<FigureGroup> {
  const workspace = createWorkspace();
  const server = await startAppServer(workspace, ':memory:');
  const echo = JsonlPeer.spawnNode([ECHO_SCRIPT]);
  try {
    const threadId = await startThread(server, workspace, 'thread');
    const modelList = await measure(server, 'model/list', {});
    const threadRead = await measure(server, 'thread/read', { threadId });
    const floor = await measure(echo, 'model/list', {});
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
    };
  } finally {
    await Promise.all([server.close(), echo.close()]);
    workspace.dispose();
  }
}
