/**
 * Streaming: one turn whose model (DeltaStreamModel, its own process, 127.0.0.1) streams 20 000
 * content fragments as fast as loopback allows, then `task_finish`. Figures: deltas/s delivered to
 * the client (first model write → last delta read) and the added latency per delta (model socket
 * write → client stdout read, p50/p99). Floor: the same stream relayed by a plain Node proxy that
 * parses the SSE and writes one JSONL line per fragment (floors/sse-to-jsonl-relay.js).
 *
 * A paced run (3 000 fragments at 1 000/s, below both sides' capacity) adds latency figures without
 * the queueing a flood builds up, i.e. the per-delta cost of the path itself.
 *
 * Fragments are matched to their write times by position (the model writes fragment i as
 * FRAGMENT_ALPHABET[i % 62]; the reader checks every one), see delta-stream-model.ts for why the
 * timestamp does not travel inside the fragment.
 */
import { resolve } from 'node:path';
import { createWorkspace, startAppServer, startThread } from './support/app-server-launch';
import { FRAGMENT_ALPHABET, streamDirectiveText } from './support/delta-stream-model';
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { type JsonMessage, JsonlPeer } from './support/jsonl-peer';
import { median, medianIndex, percentile } from './support/stats';

const DELTAS = 20_000;
const PACED_DELTAS = 3_000;
const PACED_RATE = 1_000;
const RUNS = 3;
const RELAY_SCRIPT = resolve(__dirname, 'floors/sse-to-jsonl-relay.js');

export interface StreamRun {
  deltasPerSecond: number;
  p50LatencyMs: number;
  p99LatencyMs: number;
}

/** Collects delta read times (ns) in order, checking each fragment; resolves at turn/completed. */
function collectDeltas(
  peer: JsonlPeer,
  count: number,
): Promise<{ readAtNs: bigint[]; completion: JsonMessage }> {
  const readAtNs: bigint[] = [];
  return new Promise((resolveRun, reject) => {
    const stop = peer.onMessage((message, readAt) => {
      if (message.method === 'item/agentMessage/delta') {
        const delta = (message.params as { delta: string }).delta;
        const expected = FRAGMENT_ALPHABET[readAtNs.length % FRAGMENT_ALPHABET.length];
        if (delta !== expected) {
          stop();
          reject(new Error(`delta ${readAtNs.length} is ${JSON.stringify(delta)}, expected ${expected}`));
          return;
        }
        readAtNs.push(readAt);
      } else if (message.method === 'turn/completed') {
        stop();
        if (readAtNs.length !== count) reject(new Error(`received ${readAtNs.length} of ${count} deltas`));
        else resolveRun({ readAtNs, completion: message.params as JsonMessage });
      }
    });
  });
}

function summarize(writeTimesUs: number[], readAtNs: bigint[]): StreamRun {
  if (writeTimesUs.length !== readAtNs.length) {
    throw new Error(`${writeTimesUs.length} writes but ${readAtNs.length} reads`);
  }
  const latenciesMs = readAtNs.map((read, index) => (Number(read / 1000n) - writeTimesUs[index]) / 1000);
  const spanSeconds = (Number(readAtNs[readAtNs.length - 1] / 1000n) - writeTimesUs[0]) / 1e6;
  return {
    deltasPerSecond: readAtNs.length / spanSeconds,
    p50LatencyMs: percentile(latenciesMs, 50),
    p99LatencyMs: percentile(latenciesMs, 99),
  };
}

interface StreamLoad {
  deltas: number;
  /** Fragments per second; 0 = flood. */
  rate: number;
}

const FLOOD: StreamLoad = { deltas: DELTAS, rate: 0 };
const PACED: StreamLoad = { deltas: PACED_DELTAS, rate: PACED_RATE };

async function serverRun(model: DeltaStreamModelProcess, run: string, load: StreamLoad): Promise<StreamRun> {
  const workspace = createWorkspace(model.baseUrl);
  const server = await startAppServer(workspace, resolve(workspace.dir, 'stream.sqlite'));
  try {
    const threadId = await startThread(server, workspace, 'thread');
    const tag = `server-${run}`;
    const deltas = collectDeltas(server, load.deltas);
    const text = streamDirectiveText({
      deltas: load.deltas,
      calls: 1,
      tools: 0,
      timestamps: true,
      tag,
      rate: load.rate,
    });
    await server.call('turn', 'turn/start', { threadId, input: [{ type: 'text', text }] });
    const { readAtNs, completion } = await deltas;
    if (completion.status !== 'completed') throw new Error(`turn ended ${JSON.stringify(completion)}`);
    return summarize(await model.writeTimes(tag), readAtNs);
  } finally {
    await server.close();
    workspace.dispose();
  }
}

async function floorRun(model: DeltaStreamModelProcess, run: string, load: StreamLoad): Promise<StreamRun> {
  const relay = JsonlPeer.spawnNode([RELAY_SCRIPT]);
  try {
    const tag = `floor-${run}`;
    const deltas = collectDeltas(relay, load.deltas);
    const text = streamDirectiveText({
      deltas: load.deltas,
      calls: 1,
      tools: 0,
      timestamps: true,
      tag,
      rate: load.rate,
    });
    relay.send({ jsonrpc: '2.0', id: 1, method: 'relay', params: { url: model.baseUrl, text } });
    const { readAtNs } = await deltas;
    return summarize(await model.writeTimes(tag), readAtNs);
  } finally {
    await relay.close();
  }
}

export async function runStreamingBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  try {
    const server: StreamRun[] = [];
    const floor: StreamRun[] = [];
    const pacedServer: StreamRun[] = [];
    const pacedFloor: StreamRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      server.push(await serverRun(model, `flood-${run}`, FLOOD));
      floor.push(await floorRun(model, `flood-${run}`, FLOOD));
      pacedServer.push(await serverRun(model, `paced-${run}`, PACED));
      pacedFloor.push(await floorRun(model, `paced-${run}`, PACED));
    }
    const pick = (runs: StreamRun[], key: keyof StreamRun) => median(runs.map((entry) => entry[key]));
    const medianRun = (runs: StreamRun[]) => runs[medianIndex(runs.map((entry) => entry.deltasPerSecond))];
    const common = {
      runs: RUNS,
      details: { deltas: DELTAS, serverMedianRun: medianRun(server), floorMedianRun: medianRun(floor) },
    };
    return {
      deltasPerSecond: figure({
        ...common,
        value: pick(server, 'deltasPerSecond'),
        floor: pick(floor, 'deltasPerSecond'),
        unit: 'deltas/s',
        better: 'higher',
        description: `${DELTAS} streamed fragments: first model write → last item/agentMessage/delta read, vs a plain Node SSE→JSONL proxy`,
      }),
      p50AddedLatency: figure({
        ...common,
        value: pick(server, 'p50LatencyMs'),
        floor: pick(floor, 'p50LatencyMs'),
        unit: 'ms',
        better: 'lower',
        description: 'p50 per delta: model socket write → client stdout read, vs the plain Node proxy',
      }),
      p99AddedLatency: figure({
        ...common,
        value: pick(server, 'p99LatencyMs'),
        floor: pick(floor, 'p99LatencyMs'),
        unit: 'ms',
        better: 'lower',
        description: 'p99 per delta: model socket write → client stdout read, vs the plain Node proxy',
      }),
      pacedP50AddedLatency: figure({
        runs: RUNS,
        value: pick(pacedServer, 'p50LatencyMs'),
        floor: pick(pacedFloor, 'p50LatencyMs'),
        unit: 'ms',
        better: 'lower',
        description: `p50 per delta at a paced ${PACED_RATE}/s (${PACED_DELTAS} fragments): model socket write → client stdout read, vs the plain Node proxy`,
        details: { serverMedianRun: medianRun(pacedServer), floorMedianRun: medianRun(pacedFloor) },
      }),
      pacedP99AddedLatency: figure({
        runs: RUNS,
        value: pick(pacedServer, 'p99LatencyMs'),
        floor: pick(pacedFloor, 'p99LatencyMs'),
        unit: 'ms',
        better: 'lower',
        description: `p99 per delta at a paced ${PACED_RATE}/s (${PACED_DELTAS} fragments): model socket write → client stdout read, vs the plain Node proxy`,
      }),
    };
  } finally {
    await model.close();
  }
}
