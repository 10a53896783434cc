/**
 * How the paced p99 on this machine depends on CPU spent per delta: runs the streaming benchmark's
 * paced load (3,000 fragments at 1,000/s) through the plain relay floor, with busy-write.js
 * preloaded to spin a fixed extra amount of main-thread CPU before each delta's write, and prints
 * p50/p99 and the number of deltas over 2 ms per amount. The relay is otherwise the benchmark's
 * floor, unchanged, so this isolates what per-delta work alone costs the tail when the model
 * process, the relay and the reader share two cores.
 *   npx ts-node --transpile-only bench/profiling/relay-cpu-sensitivity.ts [µs,µs,…] [rounds]
 */
import { resolve } from 'node:path';
import { DeltaStreamModelProcess } from '../support/delta-stream-model.process';
import { percentile } from '../support/stats';
import { streamThroughRelay } from '../support/streamed-turn';

const PACED = { deltas: 3_000, rate: 1_000 };
const SLOW_MS = 2;

async function main(): Promise<void> {
  const amounts = (process.argv[2] ?? '0,50,100,150,200').split(',').map(Number);
  const rounds = Number(process.argv[3] ?? 3);
  const model = await DeltaStreamModelProcess.start();
  // Only the relays spawned from here on load the preload; the model process is already running.
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} -r ${resolve(__dirname, 'busy-write.js')}`;
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const amount of amounts) {
        process.env.BUSY_WRITE_US = String(amount);
        const turn = await streamThroughRelay(model, `cpu-${round}-${amount}`, PACED, { timestamps: true });
        const latencies = turn.readAtNs.map(
          (read, index) => (Number(read / 1000n) - turn.writeTimesUs[index]) / 1000,
        );
        const slow = latencies.filter((latency) => latency > SLOW_MS).length;
        console.log(
          `round ${round} +${amount} µs/delta: p50 ${percentile(latencies, 50).toFixed(2)} ms, ` +
            `p99 ${percentile(latencies, 99).toFixed(2)} ms, over ${SLOW_MS} ms: ${slow}`,
        );
      }
    }
  } finally {
    await model.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
