/**
 * Concurrent turns (issue 41): one server (stdio, file store) with 100 threads; a turn starts on
 * each at once (100 turn/start written together), each model response (DeltaStreamModel, own
 * process, write timestamps) streaming 500 fragments unpaced. Every thread's deltas are checked in
 * order (support/streamed-turn.ts collectDeltas by threadId). Figures:
 *  - totalDeltasPerSecond (≥ 0.5×): the streams unpaced (a flood), all 50 000 deltas over first
 *    model write → last delta read;
 *  - p99AddedLatency (≤ 3×): the streams paced at PACED_RATE fragments/s each (5 000 deltas/s in
 *    all, below both sides' capacity, so the figure is the path's cost rather than the queue a flood
 *    builds: a flood's p99 is in details), p99 over all deltas of model socket write → client
 *    stdout read.
 * Floor: the plain Node SSE→JSONL relay (floors/sse-to-jsonl-relay.js) running the same 100
 * streams at once in one process (notifications carry each stream's threadId), measured the same
 * way. Runs alternate server / floor.
 */
import { join } from 'node:path';
import { createWorkspace, startAppServer } from './support/app-server-launch';
import { streamDirectiveText } from './support/delta-stream-model';
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { JsonlPeer } from './support/jsonl-peer';
import { median, percentile } from './support/stats';
import { addedLatenciesMs, collectDeltas, RELAY_SCRIPT, type StreamLoad } from './support/streamed-turn';
import { createThreads } from './support/thread-population';

const STREAMS = 100;
const DELTAS_PER_STREAM = 500;
const FLOOD: StreamLoad = { deltas: DELTAS_PER_STREAM, rate: 0 };
const PACED_RATE = 50;
const PACED: StreamLoad = { deltas: DELTAS_PER_STREAM, rate: PACED_RATE };
const RUNS = 3;

interface ConcurrentRun {
  deltasPerSecond: number;
  p50LatencyMs: number;
  p99LatencyMs: number;
}

/** Starts one stream per thread with `send` and waits for all of them, every delta checked. */
async function concurrentStreams(
  peer: JsonlPeer,
  model: DeltaStreamModelProcess,
  threadIds: readonly string[],
  load: StreamLoad,
  tag: string,
  send: (threadId: string, text: string, index: number) => Promise<unknown>,
): Promise<ConcurrentRun> {
  const tags = threadIds.map((_, index) => `${tag}-${index}`);
  const collected = threadIds.map((threadId) => collectDeltas(peer, load, threadId));
  await Promise.all(
    threadIds.map((threadId, index) =>
      send(
        threadId,
        streamDirectiveText({ ...load, calls: 1, tools: 0, timestamps: true, tag: tags[index] }),
        index,
      ),
    ),
  );
  const runs = await Promise.all(collected);
  for (const run of runs)
    if (run.completion.status !== 'completed')
      throw new Error(`turn ended ${JSON.stringify(run.completion)}`);
  const writes = await Promise.all(tags.map((streamTag) => model.writeTimes(streamTag)));
  const latencies = runs.flatMap((run, index) => addedLatenciesMs(writes[index], run.readAtNs));
  const firstWriteUs = Math.min(...writes.map((times) => times[0]));
  const lastReadUs = Math.max(...runs.map((run) => Number(run.readAtNs[run.readAtNs.length - 1] / 1000n)));
  return {
    deltasPerSecond: latencies.length / ((lastReadUs - firstWriteUs) / 1e6),
    p50LatencyMs: percentile(latencies, 50),
    p99LatencyMs: percentile(latencies, 99),
  };
}

async function throughServer(
  model: DeltaStreamModelProcess,
  load: StreamLoad,
  tag: string,
): Promise<ConcurrentRun> {
  const workspace = createWorkspace(model.baseUrl);
  const server = await startAppServer(workspace, join(workspace.dir, 'concurrent.sqlite'));
  try {
    const threadIds = await createThreads(server, workspace, STREAMS);
    return await concurrentStreams(server, model, threadIds, load, tag, (threadId, text, index) =>
      server.call(`turn-${index}`, 'turn/start', { threadId, input: [{ type: 'text', text }] }),
    );
  } finally {
    await server.close();
    workspace.dispose();
  }
}

async function throughRelay(
  model: DeltaStreamModelProcess,
  load: StreamLoad,
  tag: string,
): Promise<ConcurrentRun> {
  const relay = JsonlPeer.spawnNode([RELAY_SCRIPT]);
  try {
    await relay.call(0, 'initialize', {});
    const threadIds = Array.from({ length: STREAMS }, (_, index) => `relay-thread-${index}`);
    return await concurrentStreams(relay, model, threadIds, load, tag, async (threadId, text, index) =>
      relay.send({
        jsonrpc: '2.0',
        id: index + 1,
        method: 'relay',
        params: { url: model.baseUrl, text, threadId },
      }),
    );
  } finally {
    await relay.close();
  }
}

export async function runConcurrentTurnsBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  try {
    const server: ConcurrentRun[] = [];
    const floor: ConcurrentRun[] = [];
    const pacedServer: ConcurrentRun[] = [];
    const pacedFloor: ConcurrentRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      server.push(await throughServer(model, FLOOD, `concurrent-server-${run}`));
      floor.push(await throughRelay(model, FLOOD, `concurrent-floor-${run}`));
      pacedServer.push(await throughServer(model, PACED, `concurrent-paced-server-${run}`));
      pacedFloor.push(await throughRelay(model, PACED, `concurrent-paced-floor-${run}`));
    }
    const pick = (runs: ConcurrentRun[], key: keyof ConcurrentRun) => median(runs.map((run) => run[key]));
    const both = (key: keyof ConcurrentRun, serverRuns: ConcurrentRun[], floorRuns: ConcurrentRun[]) => ({
      server: pick(serverRuns, key),
      floor: pick(floorRuns, key),
    });
    return {
      totalDeltasPerSecond: figure({
        value: pick(server, 'deltasPerSecond'),
        floor: pick(floor, 'deltasPerSecond'),
        unit: 'deltas/s',
        runs: RUNS,
        better: 'higher',
        description: `${STREAMS} turns on ${STREAMS} threads of one server streaming ${DELTAS_PER_STREAM} fragments each at once, unpaced: all deltas over first model write → last delta read, vs the plain Node relay running the same ${STREAMS} streams`,
        details: {
          streams: STREAMS,
          deltasPerStream: DELTAS_PER_STREAM,
          floodMedianP50LatencyMs: both('p50LatencyMs', server, floor),
          floodMedianP99LatencyMs: both('p99LatencyMs', server, floor),
        },
        target: { on: 'ratio', bound: 'min', limit: 0.5 },
      }),
      p99AddedLatency: figure({
        value: pick(pacedServer, 'p99LatencyMs'),
        floor: pick(pacedFloor, 'p99LatencyMs'),
        unit: 'ms',
        runs: RUNS,
        better: 'lower',
        description: `p99 over all deltas of ${STREAMS} concurrent turns of ${DELTAS_PER_STREAM} fragments each paced at ${PACED_RATE}/s per stream (${STREAMS * PACED_RATE}/s in all): model socket write → client stdout read, vs the plain Node relay running the same streams`,
        details: {
          medianP50LatencyMs: both('p50LatencyMs', pacedServer, pacedFloor),
          pacedDeltasPerSecond: both('deltasPerSecond', pacedServer, pacedFloor),
        },
        target: { on: 'ratio', bound: 'max', limit: 3 },
      }),
    };
  } finally {
    await model.close();
  }
}
