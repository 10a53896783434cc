/**
 * Streaming: one turn whose model (DeltaStreamModel, its own process, 127.0.0.1) streams 20 000
 * content fragments as fast as loopback allows, then `task_finish`. Figures: deltas/s delivered to
 * the client (first model write → last delta read) and the added latency per delta (model socket
 * write → client stdout read, p50/p99). Floor: the same stream relayed by a plain Node proxy that
 * parses the SSE and writes one JSONL line per fragment (floors/sse-to-jsonl-relay.js).
 *
 * A paced run (3 000 fragments at 1 000/s, below both sides' capacity) adds latency figures without
 * the queueing a flood builds up, i.e. the per-delta cost of the path itself. Its p99 also holds
 * the start of the message: the first deltas queue behind what a message costs once (the server
 * commits the agentMessage item before its `item/started`, §8.11, on a process whose first turn
 * runs cold code). Two more paced figures split that out, measured the same way on both sides:
 * the first delta's latency, and the p99 of the deltas after the first PACED_SKIPPED_DELTAS.
 * Those paced runs each use a fresh process, so they also hold a process's first stream (code not yet
 * compiled or optimized, first connection to the model). The same paced load once more, on a process
 * that has streamed PACED_WARM_UPS shorter messages before (the server: earlier turns on the same
 * thread; the relay: earlier streams in the same process), gives the steady-state p99.
 *
 * Fragments are matched to their write times by position (the model writes fragment i as
 * `fragmentAt(i)`; the reader checks every one), see delta-stream-model.ts. Both sides run through
 * support/streamed-turn.ts.
 */
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { median, medianIndex, percentile } from './support/stats';
import {
  addedLatenciesMs,
  type StreamedTurn,
  type StreamLoad,
  streamThroughRelay,
  streamThroughServer,
} from './support/streamed-turn';

const DELTAS = 20_000;
const PACED_DELTAS = 3_000;
const PACED_RATE = 1_000;
const RUNS = 3;
/** About the first 100 ms of a paced message: the start-of-message share of the p99. */
const PACED_SKIPPED_DELTAS = 100;
/** Streams through the same process before the warm paced one. */
const PACED_WARM_UPS: readonly StreamLoad[] = [
  { deltas: 1_000, rate: PACED_RATE },
  { deltas: 1_000, rate: PACED_RATE },
];

export interface StreamRun {
  deltasPerSecond: number;
  p50LatencyMs: number;
  p99LatencyMs: number;
  /** The first delta of the message. */
  firstLatencyMs: number;
  /** p99 of the deltas after the first PACED_SKIPPED_DELTAS. */
  p99AfterStartMs: number;
}

function summarize(writeTimesUs: number[], readAtNs: bigint[]): StreamRun {
  const latenciesMs = addedLatenciesMs(writeTimesUs, readAtNs);
  const spanSeconds = (Number(readAtNs[readAtNs.length - 1] / 1000n) - writeTimesUs[0]) / 1e6;
  return {
    deltasPerSecond: readAtNs.length / spanSeconds,
    p50LatencyMs: percentile(latenciesMs, 50),
    p99LatencyMs: percentile(latenciesMs, 99),
    firstLatencyMs: latenciesMs[0],
    p99AfterStartMs: percentile(latenciesMs.slice(PACED_SKIPPED_DELTAS), 99),
  };
}

const FLOOD: StreamLoad = { deltas: DELTAS, rate: 0 };
const PACED: StreamLoad = { deltas: PACED_DELTAS, rate: PACED_RATE };
const TIMED = { timestamps: true };
const TIMED_WARM = { timestamps: true, warmUps: PACED_WARM_UPS };

const latencies = (turn: StreamedTurn): StreamRun => summarize(turn.writeTimesUs, turn.readAtNs);

export async function runStreamingBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  try {
    const server: StreamRun[] = [];
    const floor: StreamRun[] = [];
    const pacedServer: StreamRun[] = [];
    const pacedFloor: StreamRun[] = [];
    const warmServer: StreamRun[] = [];
    const warmFloor: StreamRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      server.push(latencies(await streamThroughServer(model, `server-flood-${run}`, FLOOD, TIMED)));
      floor.push(latencies(await streamThroughRelay(model, `floor-flood-${run}`, FLOOD, TIMED)));
      pacedServer.push(latencies(await streamThroughServer(model, `server-paced-${run}`, PACED, TIMED)));
      pacedFloor.push(latencies(await streamThroughRelay(model, `floor-paced-${run}`, PACED, TIMED)));
      warmServer.push(latencies(await streamThroughServer(model, `server-warm-${run}`, PACED, TIMED_WARM)));
      warmFloor.push(latencies(await streamThroughRelay(model, `floor-warm-${run}`, PACED, TIMED_WARM)));
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
        target: { on: 'ratio', bound: 'max', limit: 2 },
      }),
      pacedFirstDeltaLatency: figure({
        runs: RUNS,
        value: pick(pacedServer, 'firstLatencyMs'),
        floor: pick(pacedFloor, 'firstLatencyMs'),
        unit: 'ms',
        better: 'lower',
        description: `first delta of the paced message: model socket write → client stdout read (server: includes the agentMessage item's commit before item/started), vs the plain Node proxy`,
      }),
      pacedP99AfterStart: figure({
        runs: RUNS,
        value: pick(pacedServer, 'p99AfterStartMs'),
        floor: pick(pacedFloor, 'p99AfterStartMs'),
        unit: 'ms',
        better: 'lower',
        description: `p99 per delta at a paced ${PACED_RATE}/s, deltas after the first ${PACED_SKIPPED_DELTAS} of the message: model socket write → client stdout read, vs the plain Node proxy`,
      }),
      pacedP99WarmProcess: figure({
        runs: RUNS,
        value: pick(warmServer, 'p99LatencyMs'),
        floor: pick(warmFloor, 'p99LatencyMs'),
        unit: 'ms',
        better: 'lower',
        description: `p99 per delta at a paced ${PACED_RATE}/s (${PACED_DELTAS} fragments) on a process that streamed ${PACED_WARM_UPS.length} messages of ${PACED_WARM_UPS[0].deltas} fragments before (server: earlier turns on the same thread), vs the plain Node proxy after the same streams`,
        details: { serverMedianRun: medianRun(warmServer), floorMedianRun: medianRun(warmFloor) },
      }),
    };
  } finally {
    await model.close();
  }
}
