/**
 * Cold start: spawn → `initialize` response of the App Server (file store in a fresh directory, so
 * migrations run each time), median of 20, against a plain Node script that reads one JSONL line
 * and answers it. Runs alternate so machine drift affects both alike.
 */
import { join, resolve } from 'node:path';
import {
  type BenchWorkspace,
  createWorkspace,
  INITIALIZE_PARAMS,
  spawnAppServer,
} from './support/app-server-launch';
import { type Figure, figure, type FigureGroup } from './support/figure';
import { JsonlPeer } from './support/jsonl-peer';
import { median, spread } from './support/stats';

const RUNS = 20;
const FLOOR_SCRIPT = resolve(__dirname, 'floors/answer-one-line.js');

async function timeToFirstAnswer(start: () => JsonlPeer): Promise<number> {
  const began = process.hrtime.bigint();
  const peer = start();
  const answer = peer.waitFor((message) => message.id === 1, 30_000);
  peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
  const message = await answer;
  const elapsedMs = Number(process.hrtime.bigint() - began) / 1e6;
  if (!('result' in message)) throw new Error(`initialize failed: ${JSON.stringify(message)}`);
  await peer.close();
  return elapsedMs;
}

export async function runColdStartBenchmark(): Promise<FigureGroup> {
  const workspace: BenchWorkspace = createWorkspace();
  try {
    const server: number[] = [];
    const floor: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const store = join(workspace.dir, `cold-${run}`, 'app-server.sqlite');
      server.push(await timeToFirstAnswer(() => spawnAppServer(workspace, store)));
      floor.push(await timeToFirstAnswer(() => JsonlPeer.spawnNode([FLOOR_SCRIPT])));
    }
    const spawnToInitialize: Figure = figure({
      value: median(server),
      floor: median(floor),
      unit: 'ms',
      runs: RUNS,
      better: 'lower',
      description:
        'spawn of `node dist/main.js app-server` (new file store) → initialize response, vs a plain Node script answering one JSONL line',
      details: { server: spread(server), floor: spread(floor) },
      target: { on: 'ratio', bound: 'max', limit: 2 },
    });
    return { spawnToInitialize };
  } finally {
    workspace.dispose();
  }
}
