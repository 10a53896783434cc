/**
 * Heap snapshot of the App Server while one long turn streams (issue 11 memory work): starts the
 * built server with `--heapsnapshot-signal=SIGUSR2`, streams `deltas` fragments through a real
 * turn, sends SIGUSR2 once the client has read `at` deltas, and copies the snapshot to `out`.
 * It also prints VmRSS samples so the snapshot can be placed against the turn's peak.
 *
 *   npx ts-node --transpile-only bench/profiling/heap-at-delta.ts 100000 90000 /tmp/peak.heapsnapshot
 *
 * NODE_EXTRA='--trace-gc' STDERR_OUT=/tmp/gc.txt adds node flags to the server and keeps its stderr.
 * Aggregate the result with `node bench/profiling/heap-summary.js /tmp/peak.heapsnapshot`.
 */
import { appendFileSync, copyFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { streamDirectiveText } from '../support/delta-stream-model';
import { readProcMemory } from '../support/proc-status';
import { runDiagnostic, withDiagnosticServer } from './diagnostic-server';

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

async function main(): Promise<void> {
  const deltas = Number(process.argv[2] ?? 100_000);
  const at = Number(process.argv[3] ?? deltas * 0.9);
  const out = resolve(process.argv[4] ?? 'peak.heapsnapshot');
  await withDiagnosticServer(['--heapsnapshot-signal=SIGUSR2'], async ({ server, workspace, threadId }) => {
    const stderrOut = process.env.STDERR_OUT;
    if (stderrOut) server.process.stderr.on('data', (chunk: string) => appendFileSync(stderrOut, chunk));
    await sleep(500);
    const idle = readProcMemory(server.pid).rssMiB;
    let seen = 0;
    let signalled = false;
    let max = 0;
    const samples: string[] = [];
    const timer = setInterval(() => {
      const rss = readProcMemory(server.pid).rssMiB;
      max = Math.max(max, rss);
      samples.push(`${seen}:${(rss - idle).toFixed(0)}`);
    }, 100);
    const done = new Promise<void>((resolveDone) => {
      server.onMessage((message) => {
        if (message.method === 'item/agentMessage/delta') {
          seen += 1;
          if (!signalled && seen >= at) {
            signalled = true;
            process.kill(server.pid, 'SIGUSR2');
          }
        } else if (message.method === 'turn/completed') resolveDone();
      });
    });
    const text = streamDirectiveText({
      deltas,
      calls: 1,
      tools: 0,
      timestamps: false,
      tag: 'heap',
      chars: 10,
    });
    await server.call('turn', 'turn/start', { threadId, input: [{ type: 'text', text }] });
    await done;
    clearInterval(timer);
    await sleep(1000);
    console.log(`idle ${idle.toFixed(1)} MiB, peak over idle ${(max - idle).toFixed(1)} MiB`);
    console.log(`samples (deltas read:MiB over idle): ${samples.join(' ')}`);
    const snapshot = readdirSync(workspace.dir).find((name) => name.endsWith('.heapsnapshot'));
    if (!snapshot) throw new Error('no heap snapshot was written');
    copyFileSync(join(workspace.dir, snapshot), out);
    console.log(`snapshot at delta ${at} → ${out}`);
  });
}

runDiagnostic(main);
