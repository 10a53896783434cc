/**
 * Paced-stream latency series for diagnosis: alternates server and relay-floor runs of the
 * streaming benchmark's paced load and prints p50/p99 per run plus where (by fragment index) the
 * slow deltas sit, so a stall can be told from a per-delta cost. Optional server node args via
 * BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", support/app-server-launch.ts).
 *   npx ts-node --transpile-only bench/profiling/paced-latency.ts [rounds] [deltas] [rate]
 */
import { writeFileSync } from 'node:fs';
import { DeltaStreamModelProcess } from '../support/delta-stream-model.process';
import { percentile } from '../support/stats';
import { streamThroughRelay, streamThroughServer, type StreamedTurn } from '../support/streamed-turn';

function latenciesMs(turn: StreamedTurn): number[] {
  return turn.readAtNs.map((read, index) => (Number(read / 1000n) - turn.writeTimesUs[index]) / 1000);
}

function describe(name: string, values: number[]): string {
  const p99 = percentile(values, 99);
  const slow = values.map((value, index) => [index, value] as const).filter(([, value]) => value >= p99);
  const ranges = slow
    .map(([index, value]) => `${index}:${value.toFixed(1)}`)
    .slice(0, 40)
    .join(' ');
  const middle = values.slice(100, values.length - 10);
  const head = values.slice(0, 100).filter((value) => value >= p99).length;
  const tail = values.slice(values.length - 10).filter((value) => value >= p99).length;
  return `${name} middle-p99 ${percentile(middle, 99).toFixed(2)} ≥p99: first100 ${head} last10 ${tail} | p50 ${percentile(values, 50).toFixed(3)} p99 ${p99.toFixed(3)} max ${Math.max(...values).toFixed(1)} | slow ${ranges}`;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const deltas = Number(process.argv[3] ?? 3000);
  const rate = Number(process.argv[4] ?? 1000);
  const model = await DeltaStreamModelProcess.start();
  const load = { deltas, rate };
  try {
    for (let round = 0; round < rounds; round += 1) {
      const server = latenciesMs(await streamThroughServer(model, `s${round}`, load, { timestamps: true }));
      const relay = latenciesMs(await streamThroughRelay(model, `r${round}`, load, { timestamps: true }));
      console.log(describe(`server#${round}`, server));
      console.log(describe(`relay #${round}`, relay));
      console.log(`ratio p99 ${(percentile(server, 99) / percentile(relay, 99)).toFixed(2)}`);
      if (process.env.PACED_DUMP)
        writeFileSync(`${process.env.PACED_DUMP}-${round}.json`, JSON.stringify({ server, relay }));
    }
  } finally {
    await model.close();
  }
}

void main();
