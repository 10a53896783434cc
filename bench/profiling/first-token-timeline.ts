/**
 * Where a fresh process's first token goes (issue 41, `firstToken.freshProcessFirstDelta`): one
 * first-token run (support/streamed-turn.ts, 50 unpaced fragments) on a fresh server started with
 * delivery-stamps.js and a CPU profile, printed as one timeline in ms after `turn/start` was
 * written: the model's first content write, the server's socket read of it, the first delta's
 * stdout flush and the client's read; every sqlite3 statement (call → callback) and GC in between;
 * then the profile's samples in that window by state, by function (self) and by bundle module
 * (build with `CLI_BUNDLE_MINIFY=0 npm run build` for module names). All clocks are
 * CLOCK_MONOTONIC. V8 samples wall time: on a loaded machine a descheduled thread's wait lands on
 * whatever frame was current.
 *   npx ts-node --transpile-only bench/profiling/first-token-timeline.ts
 * PROFILE_EXTRA_ARGS adds node flags to the server.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { summarizeProfile } from './cpu-profile-summary';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vv-first-token-'));
  process.env.STAMP_LOG = join(dir, 'stamps');
  process.env.BENCH_SERVER_NODE_ARGS = [
    `-r ${resolve(__dirname, 'delivery-stamps.js')}`,
    `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=100`,
    process.env.PROFILE_EXTRA_ARGS ?? '',
  ].join(' ');
  // Imported after the environment is set: the launcher reads BENCH_SERVER_NODE_ARGS once.
  const { streamThroughServer } = await import('../support/streamed-turn');
  const { DeltaStreamModelProcess } = await import('../support/delta-stream-model.process');
  const model = await DeltaStreamModelProcess.start();
  const turn = await streamThroughServer(model, 'first-token', { deltas: 50, rate: 0 }, { timestamps: true });
  await model.close();
  const readUs = Number(turn.readAtNs[0] / 1000n);
  const beganUs = readUs - turn.firstDeltaMs * 1000;
  const at = (us: number) => ((us - beganUs) / 1000).toFixed(2);
  const files = readdirSync(dir);
  const stamps = readFileSync(join(dir, files.find((name) => name.startsWith('stamps.')) ?? 'stamps'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '));
  const firstOf = (kind: string) => Number(stamps.find((fields) => fields[0] === kind)?.[1] ?? NaN);
  const flushUs = firstOf('F');
  console.log(
    `turn/start written 0 | model's first content write ${at(turn.writeTimesUs[0])} | server's socket read ${at(firstOf('R'))} | first delta flushed ${at(flushUs)} | client read ${at(readUs)}`,
  );
  for (const [kind, first, second, ...rest] of stamps) {
    if (kind === 'S' && Number(second) >= beganUs && Number(first) <= flushUs)
      console.log(`  sql ${at(Number(first))} → ${at(Number(second))} ${rest.join(' ')}`);
    if (kind === 'G' && Number(first) >= beganUs && Number(first) <= flushUs)
      console.log(`  gc ${at(Number(first))} ${second} ${rest.join(' ')} ms`);
  }
  const profile = files.find((name) => name.endsWith('.cpuprofile'));
  if (profile !== undefined) summarizeProfile(join(dir, profile), beganUs, flushUs);
}

void main();
