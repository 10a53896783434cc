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

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const DIST_BUNDLE = resolve(__dirname, '../../dist/cli-bundle.js');

/** Maps a line of a readable bundle to the module it belongs to (its `// path` comment). */
function bundleModules(): (line: number) => string {
  const starts: Array<[number, string]> = [];
  readFileSync(DIST_BUNDLE, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (/^\/\/ \S+\.[cm]?[jt]s$/.test(line)) starts.push([index, line.slice(3)]);
    });
  return (line) => {
    let found = '(bundle start)';
    for (let low = 0, high = starts.length - 1; low <= high;) {
      const mid = (low + high) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        low = mid + 1;
      } else high = mid - 1;
    }
    return shortPath(found);
  };
}

const shortPath = (path: string) =>
  path
    .replace(/^.*node_modules\//, '')
    .split('/')
    .slice(0, 2)
    .join('/');

function add(totals: Map<string, number>, key: string, us: number): void {
  totals.set(key, (totals.get(key) ?? 0) + us);
}

function printTop(label: string, totals: Map<string, number>, count = 12): void {
  for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`    ${label} ${(us / 1000).toFixed(2)} ms ${key}`);
}

function summarizeProfile(file: string, fromUs: number, toUs: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const moduleAt = bundleModules();
  const states = new Map<string, number>();
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((sample, index) => {
    const delta = profile.timeDeltas[index];
    at += delta;
    if (at < fromUs || at > toUs) return;
    const frame = nodes.get(sample)?.callFrame;
    if (frame === undefined) return;
    const name = frame.functionName || '(anonymous)';
    add(states, name.startsWith('(') && !frame.url ? name : 'js', delta);
    add(functions, `${name} ${shortPath(frame.url)}:${frame.lineNumber}`, delta);
    add(
      modules,
      frame.url.endsWith('cli-bundle.js') ? moduleAt(frame.lineNumber) : shortPath(frame.url) || name,
      delta,
    );
  });
  const total = [...states.values()].reduce((sum, us) => sum + us, 0);
  const byState = [...states].map(([state, us]) => `${state} ${(us / 1000).toFixed(1)}`).join(', ');
  console.log(`  profile window ${(total / 1000).toFixed(1)} ms: ${byState}`);
  printTop('self', functions);
  printTop('module', modules);
  console.log(`  profile: ${file}`);
}

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
