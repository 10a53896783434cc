/**
 * WebSocket (issue 41), the server on `ws://127.0.0.1:0` (`--ws-no-auth`, file store) and `ws`
 * clients in this process (support/ws-clients.ts):
 *  - fanOut100Clients (≥ 0.5×): 100 connections, all initialized, subscribed to one thread (the
 *    first started it, the other 99 `thread/resume`d it); the first starts a turn whose model
 *    (DeltaStreamModel, own process) streams 20 000 fragments unpaced. Every client checks every
 *    delta in order (support/streamed-turn.ts collectDeltas) and must get all of them. Value:
 *    deltas delivered per second summed over clients, turn/start written → the last delta read by
 *    the last client. Floor: a plain `ws` server (floors/ws-broadcast.js) relaying the same model
 *    stream and sending each frame, built once, to the same 100 connected clients, timed the same
 *    way from its relay request.
 *  - idleConnections1000OverIdle (≤ idle + 64 MiB): VmRSS of the server with 1 000 connections,
 *    each after its `initialize` answer, minus its VmRSS just before they connected; floor: the
 *    same growth of the plain `ws` server with the same 1 000 connections initialized.
 */
import { join, resolve } from 'node:path';
import { createWorkspace } from './support/app-server-launch';
import { streamDirectiveText } from './support/delta-stream-model';
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { readProcMemory, RssSampler } from './support/proc-status';
import { median, medianIndex } from './support/stats';
import { collectDeltas, type StreamLoad } from './support/streamed-turn';
import {
  type BenchWsClient,
  closeAll,
  connectInitialized,
  startWsAppServer,
  WsServerChild,
} from './support/ws-clients';

const FAN_OUT_CLIENTS = 100;
const FAN_OUT_LOAD: StreamLoad = { deltas: 20_000, rate: 0 };
const RUNS = 3;
const IDLE_CONNECTIONS = 1_000;
const WS_FLOOR_SCRIPT = resolve(__dirname, 'floors/ws-broadcast.js');

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

export interface FanOutRun {
  deltasPerSecond: number;
  seconds: number;
  /** Largest VmRSS of the serving process while it fanned out (sampled every 50 ms). */
  peakRssMiB: number;
}

/** Starts the stream with `send` and waits until every client read every delta, in order. */
async function fanOut(
  clients: readonly BenchWsClient[],
  serverPid: number,
  send: (text: string) => Promise<unknown>,
  tag: string,
): Promise<FanOutRun> {
  const collected = clients.map((client) => collectDeltas(client, FAN_OUT_LOAD));
  const sampler = new RssSampler(serverPid, 50);
  const began = process.hrtime.bigint();
  await send(streamDirectiveText({ ...FAN_OUT_LOAD, calls: 1, tools: 0, timestamps: false, tag }));
  const runs = await Promise.all(collected);
  const peakRssMiB = sampler.stop().maxRssMiB;
  for (const run of runs)
    if (run.completion.status !== 'completed')
      throw new Error(`turn ended ${JSON.stringify(run.completion)}`);
  const lastReadNs = runs.reduce((last, run) => {
    const read = run.readAtNs[run.readAtNs.length - 1];
    return read > last ? read : last;
  }, began);
  const seconds = Number(lastReadNs - began) / 1e9;
  return { deltasPerSecond: (clients.length * FAN_OUT_LOAD.deltas) / seconds, seconds, peakRssMiB };
}

/** Also used by bench/profiling/fan-out-rss.ts with other client counts. */
export async function fanOutThroughServer(
  model: DeltaStreamModelProcess,
  tag: string,
  clientCount = FAN_OUT_CLIENTS,
): Promise<FanOutRun> {
  const workspace = createWorkspace(model.baseUrl);
  const server = await startWsAppServer(workspace, join(workspace.dir, 'ws.sqlite'));
  try {
    const clients = await connectInitialized(server.url, clientCount);
    try {
      const [owner, ...subscribers] = clients;
      const { threadId } = await owner.call('thread', 'thread/start', { cwd: workspace.threadCwd });
      await Promise.all(subscribers.map((client) => client.call('resume', 'thread/resume', { threadId })));
      return await fanOut(
        clients,
        server.pid,
        (text) => owner.call('turn', 'turn/start', { threadId, input: [{ type: 'text', text }] }),
        tag,
      );
    } finally {
      await closeAll(clients);
    }
  } finally {
    await server.stop();
    workspace.dispose();
  }
}

const startWsFloor = () => WsServerChild.start([WS_FLOOR_SCRIPT]);

async function fanOutThroughFloor(model: DeltaStreamModelProcess, tag: string): Promise<FanOutRun> {
  const floor = await startWsFloor();
  try {
    const clients = await connectInitialized(floor.url, FAN_OUT_CLIENTS);
    try {
      return await fanOut(
        clients,
        floor.pid,
        (text) => clients[0].call('relay', 'relay', { url: model.baseUrl, text }),
        tag,
      );
    } finally {
      await closeAll(clients);
    }
  } finally {
    await floor.stop();
  }
}

/** VmRSS of a fresh WebSocket server child before and with IDLE_CONNECTIONS initialized connections. */
async function idleConnectionsRss(
  start: () => Promise<WsServerChild>,
): Promise<{ idleMiB: number; connectedMiB: number }> {
  const server = await start();
  try {
    await sleep(500);
    const idleMiB = readProcMemory(server.pid).rssMiB;
    const clients = await connectInitialized(server.url, IDLE_CONNECTIONS);
    try {
      await sleep(1_000);
      return { idleMiB, connectedMiB: readProcMemory(server.pid).rssMiB };
    } finally {
      await closeAll(clients);
    }
  } finally {
    await server.stop();
  }
}

export async function runWebSocketBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  try {
    const server: FanOutRun[] = [];
    const floor: FanOutRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      server.push(await fanOutThroughServer(model, `ws-server-${run}`));
      floor.push(await fanOutThroughFloor(model, `ws-floor-${run}`));
    }
    const workspace = createWorkspace();
    let idleServer: { idleMiB: number; connectedMiB: number };
    try {
      idleServer = await idleConnectionsRss(() =>
        startWsAppServer(workspace, join(workspace.dir, 'idle.sqlite')),
      );
    } finally {
      workspace.dispose();
    }
    const idleFloor = await idleConnectionsRss(startWsFloor);
    const medianRun = (runs: FanOutRun[]) => runs[medianIndex(runs.map((run) => run.deltasPerSecond))];
    return {
      fanOut100Clients: figure({
        value: median(server.map((run) => run.deltasPerSecond)),
        floor: median(floor.map((run) => run.deltasPerSecond)),
        unit: 'deltas/s',
        runs: RUNS,
        better: 'higher',
        description: `${FAN_OUT_CLIENTS} WebSocket clients subscribed to one thread, one turn of ${FAN_OUT_LOAD.deltas} fragments: deltas read per second summed over clients (turn/start written → last delta read by the last client, every delta checked in order), vs a plain ws server relaying the same stream to the same clients`,
        details: {
          clients: FAN_OUT_CLIENTS,
          deltasPerClient: FAN_OUT_LOAD.deltas,
          serverMedianRun: medianRun(server),
          floorMedianRun: medianRun(floor),
        },
        target: { on: 'ratio', bound: 'min', limit: 0.5 },
      }),
      idleConnections1000OverIdle: figure({
        value: idleServer.connectedMiB - idleServer.idleMiB,
        floor: idleFloor.connectedMiB - idleFloor.idleMiB,
        unit: 'MiB',
        runs: 1,
        better: 'lower',
        description: `VmRSS with ${IDLE_CONNECTIONS} idle WebSocket connections, each after its initialize answer, minus VmRSS just before they connected, vs the same growth of a plain ws server`,
        details: { server: idleServer, floor: idleFloor },
        target: { on: 'value', bound: 'max', limit: 64 },
      }),
    };
  } finally {
    await model.close();
  }
}
