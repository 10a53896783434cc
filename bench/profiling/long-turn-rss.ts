/**
 * Long-turn RSS series for diagnosis: runs the long-turn benchmark's 100 000-fragment turn through
 * fresh servers `rounds` times and prints idle, peak and growth per run.
 *   npx ts-node --transpile-only bench/profiling/long-turn-rss.ts [rounds] [deltas]
 */
import { DeltaStreamModelProcess } from '../support/delta-stream-model.process';
import { streamThroughServer } from '../support/streamed-turn';

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const deltas = Number(process.argv[3] ?? 100_000);
  const model = await DeltaStreamModelProcess.start();
  try {
    for (let round = 0; round < rounds; round += 1) {
      const turn = await streamThroughServer(
        model,
        `rss-${round}`,
        { deltas, rate: 0, chars: 10 },
        { sampleRss: true },
      );
      console.log(
        `run ${round}: ${turn.elapsedMs.toFixed(0)} ms idle ${turn.idleRssMiB.toFixed(1)} MiB peak ${turn.peakRssMiB.toFixed(1)} MiB growth ${(turn.peakRssMiB - turn.idleRssMiB).toFixed(1)} MiB`,
      );
    }
  } finally {
    await model.close();
  }
}

void main();
