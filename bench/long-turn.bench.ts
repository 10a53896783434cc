/**
 * Long turn (issue 11, docs/spec/protocol.md §4.8 v1.1): one turn whose model streams 100 000 fragments of
 * 10 characters as fast as loopback allows, and the same turn with 10 000 fragments, through the
 * App Server (file store) and through the plain SSE→JSONL relay floor. Figures:
 *  - time, turn/start write → turn/completed read (target ≤ 2× the relay);
 *  - peak VmRSS while streaming minus the idle VmRSS just before the turn (target ≤ 50 MiB);
 *  - time(100k) / time(10k) (target ≤ 12: linear streaming is ~10).
 * Each figure is the median of three runs of each length (a single run of the long turn made its
 * time and peak a draw of one); runs alternate server and floor so machine drift affects both alike.
 */
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { median } from './support/stats';
import {
  type StreamedTurn,
  type StreamLoad,
  streamThroughRelay,
  streamThroughServer,
} from './support/streamed-turn';

const LONG: StreamLoad = { deltas: 100_000, rate: 0, chars: 10 };
const SHORT: StreamLoad = { deltas: 10_000, rate: 0, chars: 10 };
const LONG_RUNS = 3;
const SHORT_RUNS = 3;
const MEASURED = { sampleRss: true };

interface Side {
  long: StreamedTurn[];
  short: StreamedTurn[];
}

const medianOf = (turns: StreamedTurn[], pick: (turn: StreamedTurn) => number) => median(turns.map(pick));
const growthMiB = (turn: StreamedTurn) => turn.peakRssMiB - turn.idleRssMiB;

function summary(side: Side): Record<string, number> {
  return {
    longMs: medianOf(side.long, (turn) => turn.elapsedMs),
    shortMs: medianOf(side.short, (turn) => turn.elapsedMs),
    longIdleRssMiB: medianOf(side.long, (turn) => turn.idleRssMiB),
    longPeakRssMiB: medianOf(side.long, (turn) => turn.peakRssMiB),
  };
}

/** Each long run's growth and time, so a figure's spread shows beside its median. */
function longRuns(side: Side): Record<string, number[]> {
  return {
    longGrowthMiB: side.long.map(growthMiB),
    longMs: side.long.map((turn) => turn.elapsedMs),
  };
}

export async function runLongTurnBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  try {
    const server: Side = { long: [], short: [] };
    const floor: Side = { long: [], short: [] };
    for (let run = 0; run < SHORT_RUNS; run += 1) {
      server.short.push(await streamThroughServer(model, `long-s-short-${run}`, SHORT, MEASURED));
      floor.short.push(await streamThroughRelay(model, `long-f-short-${run}`, SHORT, MEASURED));
    }
    for (let run = 0; run < LONG_RUNS; run += 1) {
      server.long.push(await streamThroughServer(model, `long-s-long-${run}`, LONG, MEASURED));
      floor.long.push(await streamThroughRelay(model, `long-f-long-${run}`, LONG, MEASURED));
    }
    const serverSummary = summary(server);
    const floorSummary = summary(floor);
    const details = {
      server: serverSummary,
      floor: floorSummary,
      chars: LONG.chars,
      runs: { server: longRuns(server), floor: longRuns(floor) },
    };
    return {
      longTurn100kTime: figure({
        value: serverSummary.longMs,
        floor: floorSummary.longMs,
        unit: 'ms',
        runs: LONG_RUNS,
        better: 'lower',
        description: `one turn streaming ${LONG.deltas} fragments of ${LONG.chars} characters: turn/start → turn/completed, vs the same stream through the plain Node SSE→JSONL relay`,
        details,
        target: { on: 'ratio', bound: 'max', limit: 2 },
      }),
      longTurn100kPeakRssOverIdle: figure({
        value: medianOf(server.long, growthMiB),
        floor: medianOf(floor.long, growthMiB),
        unit: 'MiB',
        runs: LONG_RUNS,
        better: 'lower',
        description: `peak VmRSS while the ${LONG.deltas}-fragment turn streams minus VmRSS just before it (server idle after initialize + thread/start), vs the relay's`,
        details,
        target: { on: 'value', bound: 'max', limit: 50 },
      }),
      longTurnScaling100kOver10k: figure({
        value: serverSummary.longMs / serverSummary.shortMs,
        floor: floorSummary.longMs / floorSummary.shortMs,
        unit: '×',
        runs: SHORT_RUNS,
        better: 'lower',
        description: `time(${LONG.deltas} fragments) / time(${SHORT.deltas} fragments) of one turn (linear ≈ 10), vs the relay's`,
        details,
        target: { on: 'value', bound: 'max', limit: 12 },
      }),
    };
  } finally {
    await model.close();
  }
}
