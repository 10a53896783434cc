/**
 * How the WebSocket fan-out's time and the server's peak VmRSS scale with the number of
 * subscribers: the `websocket.fanOut100Clients` turn (20 000 unpaced fragments) on a fresh server
 * per client count, each count once.
 *   npx ts-node --transpile-only bench/profiling/fan-out-rss.ts [count,count,…]
 */
import { DeltaStreamModelProcess } from '../support/delta-stream-model.process';
import { fanOutThroughServer } from '../websocket.bench';

async function main(): Promise<void> {
  const counts = (process.argv[2] ?? '1,10,30,100').split(',').map(Number);
  const model = await DeltaStreamModelProcess.start();
  try {
    for (const count of counts) {
      const run = await fanOutThroughServer(model, `fan-out-rss-${count}`, count);
      console.log(
        `${count} clients: ${run.seconds.toFixed(1)} s, ${Math.round(run.deltasPerSecond)} deltas/s summed, peak VmRSS ${run.peakRssMiB.toFixed(0)} MiB`,
      );
    }
  } finally {
    await model.close();
  }
}

void main();
