/**
 * What a process's first turn costs once: starts the built server, then runs short turns one after
 * the other and prints VmRSS and the V8 heap after each (heap-sampler lines from stderr), so the
 * first turn's one-off growth can be told from a turn's own.
 *   npx ts-node --transpile-only bench/profiling/first-turn-cost.ts [turns] [deltas]
 * NODE_EXTRA adds node flags to the server.
 */
import { resolve } from 'node:path';
import { streamDirectiveText } from '../support/delta-stream-model';
import { readProcMemory } from '../support/proc-status';
import { runDiagnostic, withDiagnosticServer } from './diagnostic-server';

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? 3);
  const deltas = Number(process.argv[3] ?? 10);
  await withDiagnosticServer(['-r', resolve(__dirname, 'heap-sampler.js')], async ({ server, threadId }) => {
    let lastSample = '';
    server.process.stderr.on('data', (chunk: string) => {
      const lines = chunk.split('\n').filter((line) => line.startsWith('heap-sample'));
      if (lines.length > 0) lastSample = lines[lines.length - 1];
    });
    const report = (label: string): void =>
      console.log(`${label}: rss ${readProcMemory(server.pid).rssMiB.toFixed(1)} | ${lastSample}`);
    await sleep(1000);
    report('idle');
    for (let turn = 0; turn < turns; turn += 1) {
      const done = new Promise<void>((resolveDone) => {
        const stop = server.onMessage((message) => {
          if (message.method === 'turn/completed') {
            stop();
            resolveDone();
          }
        });
      });
      const began = performance.now();
      const text = streamDirectiveText({
        deltas,
        calls: 1,
        tools: 0,
        timestamps: false,
        tag: `t${turn}`,
        chars: 10,
      });
      await server.call(`turn${turn}`, 'turn/start', { threadId, input: [{ type: 'text', text }] });
      await done;
      const took = performance.now() - began;
      await sleep(1000);
      report(`after turn ${turn} (${took.toFixed(0)} ms)`);
    }
  });
}

runDiagnostic(main);
