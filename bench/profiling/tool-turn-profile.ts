/**
 * Where the persistence benchmark's tool-using turn goes (issue 41, `persistence.toolTurnVsMinimalLoop`):
 * one turn of 5 000 fragments over 50 model calls with 10 `file_info` calls each, on a fresh server
 * (file store) started with a CPU profile, then the profile's samples between `turn/start` written
 * and `turn/completed` read (cpu-profile-summary.ts). Build with `CLI_BUNDLE_MINIFY=0 npm run build`
 * for module names.
 *   npx ts-node --transpile-only bench/profiling/tool-turn-profile.ts
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamDirectiveText } from '../support/delta-stream-model';
import { summarizeProfile } from './cpu-profile-summary';
import { withDiagnosticServer } from './diagnostic-server';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vv-tool-turn-'));
  let window: [number, number] = [0, 0];
  await withDiagnosticServer(
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'],
    async ({ server, threadId }) => {
      const text = streamDirectiveText({
        deltas: 5_000,
        calls: 50,
        tools: 10,
        timestamps: false,
        tag: 'tool-turn',
      });
      const completed = server.waitFor((message) => message.method === 'turn/completed', 120_000);
      const began = process.hrtime.bigint();
      await server.call('turn', 'turn/start', { threadId, input: [{ type: 'text', text }] });
      await completed;
      const ended = process.hrtime.bigint();
      window = [Number(began / 1000n), Number(ended / 1000n)];
      console.log(`turn/start → turn/completed ${(Number(ended - began) / 1e6).toFixed(0)} ms`);
    },
  );
  const profile = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (profile === undefined) throw new Error(`no profile in ${dir}`);
  summarizeProfile(join(dir, profile), window[0], window[1]);
}

void main();
