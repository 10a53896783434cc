/**
 * First token of a fresh process (issue 41, ≤ 2×): a new server (file store), `initialize` and
 * `thread/start` done, then `turn/start` written → first `item/agentMessage/delta` read; its model
 * (DeltaStreamModel, own process, 127.0.0.1) streams FRAGMENTS fragments unpaced. Floor: a new
 * plain Node SSE→JSONL relay (floors/sse-to-jsonl-relay.js), its request written → first delta
 * line read, the same stream; the relay answered an `initialize` first, so neither side's process
 * start is in the figure. Both through support/streamed-turn.ts, median of RUNS alternating
 * runs; the server's turn-start cost (thread lookup, turn and userMessage rows, the agentMessage
 * commit before item/started, code compiled for the first time) is what the ratio shows.
 */
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { median, spread } from './support/stats';
import {
  type StreamedTurn,
  type StreamLoad,
  streamThroughRelay,
  streamThroughServer,
} from './support/streamed-turn';

const RUNS = 10;
const FRAGMENTS = 50;
const LOAD: StreamLoad = { deltas: FRAGMENTS, rate: 0 };
const TIMED = { timestamps: true };

export async function runFirstTokenBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  try {
    const server: number[] = [];
    const floor: number[] = [];
    // The first fragment's model write → read: the share of the figure after the model answered.
    const serverFromModelWrite: number[] = [];
    const floorFromModelWrite: number[] = [];
    const fromModelWrite = (turn: StreamedTurn) =>
      (Number(turn.readAtNs[0] / 1000n) - turn.writeTimesUs[0]) / 1000;
    for (let run = 0; run < RUNS; run += 1) {
      const served = await streamThroughServer(model, `first-server-${run}`, LOAD, TIMED);
      const relayed = await streamThroughRelay(model, `first-floor-${run}`, LOAD, TIMED);
      server.push(served.firstDeltaMs);
      floor.push(relayed.firstDeltaMs);
      serverFromModelWrite.push(fromModelWrite(served));
      floorFromModelWrite.push(fromModelWrite(relayed));
    }
    return {
      freshProcessFirstDelta: figure({
        value: median(server),
        floor: median(floor),
        unit: 'ms',
        runs: RUNS,
        better: 'lower',
        description: `fresh server (initialize and thread/start done): turn/start written → first item/agentMessage/delta read, vs a fresh plain Node SSE→JSONL relay: request written → first delta line read (${FRAGMENTS}-fragment stream)`,
        details: {
          server: spread(server),
          floor: spread(floor),
          medianFirstDeltaFromModelWriteMs: {
            server: median(serverFromModelWrite),
            floor: median(floorFromModelWrite),
          },
        },
        target: { on: 'ratio', bound: 'max', limit: 2 },
      }),
    };
  } finally {
    await model.close();
  }
}
