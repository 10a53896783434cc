/**
 * Memory: resident set (VmRSS) of the App Server (file store) with 1 000 threads, and its peak
 * while 10 turns stream concurrently (5 000 fragments each, sampled every 50 ms). Floor: VmRSS of
 * a plain Node JSONL process (floors/jsonl-echo.js) after it answered one request (threads1000:
 * issue 41's target ≤ 1.5×).
 * streamingTurns10OverIdle (issue 11's target, ≤ idle + 40 MiB): the same peak minus the server's
 * VmRSS just before the turns, beside the growth of the plain SSE→JSONL relay floor relaying the
 * same 10 streams at once.
 */
import { join, resolve } from 'node:path';
import { createWorkspace, startAppServer } from './support/app-server-launch';
import { streamDirectiveText } from './support/delta-stream-model';
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { JsonlPeer } from './support/jsonl-peer';
import { readProcMemory, RssSampler } from './support/proc-status';
import { RELAY_SCRIPT } from './support/streamed-turn';
import { createThreads } from './support/thread-population';

const THREADS = 1_000;
const CONCURRENT_TURNS = 10;
const DELTAS_PER_TURN = 5_000;
const ECHO_SCRIPT = resolve(__dirname, 'floors/jsonl-echo.js');

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

async function plainNodeRssMiB(): Promise<number> {
  const echo = JsonlPeer.spawnNode([ECHO_SCRIPT]);
  try {
    await echo.call(1, 'ping', {});
    await sleep(200);
    return readProcMemory(echo.pid).rssMiB;
  } finally {
    await echo.close();
  }
}

const turnText = (tag: string) =>
  streamDirectiveText({ deltas: DELTAS_PER_TURN, calls: 1, tools: 0, timestamps: false, tag });

/** VmRSS of the relay floor before and at its peak while it relays the 10 streams concurrently. */
async function relayConcurrentRss(
  model: DeltaStreamModelProcess,
): Promise<{ idleMiB: number; peakMiB: number }> {
  const relay = JsonlPeer.spawnNode([RELAY_SCRIPT]);
  try {
    await sleep(500);
    const idleMiB = readProcMemory(relay.pid).rssMiB;
    const sampler = new RssSampler(relay.pid, 50);
    const streams = Array.from({ length: CONCURRENT_TURNS }, (_, index) => {
      const threadId = `relay-${index}`;
      const completed = relay.waitFor(
        (message) =>
          message.method === 'turn/completed' &&
          (message.params as { threadId: string }).threadId === threadId,
        120_000,
      );
      relay.send({
        jsonrpc: '2.0',
        id: index,
        method: 'relay',
        params: { url: model.baseUrl, text: turnText(`mr${index}`), threadId },
      });
      return completed;
    });
    await Promise.all(streams);
    return { idleMiB, peakMiB: sampler.stop().maxRssMiB };
  } finally {
    await relay.close();
  }
}

export async function runMemoryBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  const workspace = createWorkspace(model.baseUrl);
  try {
    const floorMiB = await plainNodeRssMiB();
    const server = await startAppServer(workspace, join(workspace.dir, 'memory.sqlite'));
    try {
      await sleep(200);
      const idleMiB = readProcMemory(server.pid).rssMiB;
      const threadIds = await createThreads(server, workspace, THREADS);
      await sleep(500);
      const threadsMiB = readProcMemory(server.pid).rssMiB;

      const sampler = new RssSampler(server.pid, 50);
      const turns = threadIds.slice(0, CONCURRENT_TURNS).map(async (threadId, index) => {
        const completed = server.waitFor(
          (message) =>
            message.method === 'turn/completed' &&
            (message.params as { threadId: string }).threadId === threadId,
          120_000,
        );
        const text = turnText(`m${index}`);
        await server.call(`turn-${index}`, 'turn/start', { threadId, input: [{ type: 'text', text }] });
        const params = (await completed).params as { status: string };
        if (params.status !== 'completed') throw new Error(`turn ended ${JSON.stringify(params)}`);
      });
      await Promise.all(turns);
      const streaming = sampler.stop();
      const relay = await relayConcurrentRss(model);
      return {
        streamingTurns10OverIdle: figure({
          value: streaming.maxRssMiB - threadsMiB,
          floor: relay.peakMiB - relay.idleMiB,
          unit: 'MiB',
          runs: 1,
          better: 'lower',
          description: `peak VmRSS while ${CONCURRENT_TURNS} turns stream ${DELTAS_PER_TURN} fragments each concurrently minus VmRSS just before them (same server, ${THREADS} threads), vs the growth of the plain Node relay relaying the same streams at once`,
          details: {
            serverIdleMiB: threadsMiB,
            serverPeakMiB: streaming.maxRssMiB,
            relayIdleMiB: relay.idleMiB,
            relayPeakMiB: relay.peakMiB,
          },
          target: { on: 'value', bound: 'max', limit: 40 },
        }),
        threads1000: figure({
          value: threadsMiB,
          floor: floorMiB,
          unit: 'MiB',
          runs: 1,
          better: 'lower',
          description: `VmRSS of the server after ${THREADS} thread/start (file store), vs a plain Node JSONL process`,
          details: { serverIdleAfterInitializeMiB: idleMiB },
          target: { on: 'ratio', bound: 'max', limit: 1.5 },
        }),
        streamingTurns10: figure({
          value: streaming.maxRssMiB,
          floor: floorMiB,
          unit: 'MiB',
          runs: 1,
          better: 'lower',
          description: `peak VmRSS while ${CONCURRENT_TURNS} turns stream ${DELTAS_PER_TURN} fragments each concurrently (same server, ${THREADS} threads), vs a plain Node JSONL process`,
          details: { samples: streaming.samples, serverIdleAfterInitializeMiB: idleMiB },
        }),
      };
    } finally {
      await server.close();
    }
  } finally {
    workspace.dispose();
    await model.close();
  }
}
