/**
 * Summarizes a `--cpu-prof` profile of the built server over a window (CLOCK_MONOTONIC µs, as
 * `process.hrtime` and the bench model's write times): samples by state, by function (self time)
 * and by the bundle module they fall in (module names need a readable bundle:
 * `CLI_BUNDLE_MINIFY=0 npm run build`). V8 samples wall time: a descheduled thread's wait lands on
 * the frame that was current. Shared by first-token-timeline.ts and tool-turn-profile.ts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

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

export function summarizeProfile(file: string, fromUs: number, toUs: number): void {
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
