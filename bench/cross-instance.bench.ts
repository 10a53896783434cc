/**
 * docs/spec/postgres.md §2 live fan-out: two server instances on one PostgreSQL database (a throwaway
 * cluster, as in the tests); a client on A starts a turn whose model (DeltaStreamModel, paced
 * 1 000 fragments at 500/s, write timestamps) streams; a client on B subscribed with
 * thread/resume. Figure: per-delta latency model write → read by the subscriber on B (value) vs
 * by the subscriber on A, the turn's owner (floor), p50 and p99.
 * p99LatencyOnBVsListenNotify (issue 41, ≤ 1.5×): the same p99 on B against a bare LISTEN/NOTIFY
 * floor on the same cluster (floors/listen-notify-relay.js): one plain Node process relays the
 * same model stream and pg_notify()s each notification text, a second one LISTENs and writes each
 * payload to stdout; the same per-delta latency, model write → read of the listener's line.
 */
import { resolve } from 'node:path';
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { createWorkspace, startAppServer, startThread } from './support/app-server-launch';
import { JsonlPeer } from './support/jsonl-peer';
import { streamDirectiveText } from './support/delta-stream-model';
import { figure, type FigureGroup } from './support/figure';
import { percentile } from './support/stats';
import { addedLatenciesMs, collectDeltas } from './support/streamed-turn';
import { startPostgresCluster, stopPostgresCluster } from '../test/support/postgres-cluster';
import { createPostgresDatabase, postgresDatabaseUrl } from '../test/support/store-drivers';

const LOAD = { deltas: 1_000, rate: 500 };
const RUNS = 2;
const LISTEN_NOTIFY_FLOOR = resolve(__dirname, 'floors/listen-notify-relay.js');

/** The same stream through the bare LISTEN/NOTIFY floor: latencies model write → listener's line. */
async function listenNotifyLatencies(
  model: DeltaStreamModelProcess,
  url: string,
  tag: string,
): Promise<number[]> {
  const listener = JsonlPeer.spawnNode([LISTEN_NOTIFY_FLOOR, 'listen', url]);
  const publisher = JsonlPeer.spawnNode([LISTEN_NOTIFY_FLOOR, 'publish', url]);
  try {
    await Promise.all([listener.call(0, 'initialize', {}), publisher.call(0, 'initialize', {})]);
    const deltas = collectDeltas(listener, LOAD);
    const text = streamDirectiveText({ ...LOAD, calls: 1, tools: 0, timestamps: true, tag });
    await publisher.call(1, 'relay', { url: model.baseUrl, text });
    const { readAtNs } = await deltas;
    return addedLatenciesMs(await model.writeTimes(tag), readAtNs);
  } finally {
    await Promise.all([publisher.close(), listener.close()]);
  }
}

export async function runCrossInstanceBenchmark(): Promise<FigureGroup> {
  const cluster = await startPostgresCluster();
  process.env.VV_TEST_POSTGRES_URL = cluster.adminUrl;
  const model = await DeltaStreamModelProcess.start();
  const onA: number[] = [];
  const onB: number[] = [];
  const bare: number[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const workspace = createWorkspace(model.baseUrl);
      const url = postgresDatabaseUrl(await createPostgresDatabase());
      const a = await startAppServer(workspace, url);
      const b = await startAppServer(workspace, url);
      try {
        const threadId = await startThread(a, workspace, 'thread');
        await b.call('resume', 'thread/resume', { threadId });
        const tag = `cross-${run}`;
        const deltasA = collectDeltas(a, LOAD);
        const deltasB = collectDeltas(b, LOAD);
        const text = streamDirectiveText({ ...LOAD, calls: 1, tools: 0, timestamps: true, tag });
        await a.call('turn', 'turn/start', { threadId, input: [{ type: 'text', text }] });
        const [readA, readB] = await Promise.all([deltasA, deltasB]);
        const writes = await model.writeTimes(tag);
        onA.push(...addedLatenciesMs(writes, readA.readAtNs));
        onB.push(...addedLatenciesMs(writes, readB.readAtNs));
      } finally {
        await b.close();
        await a.close();
        workspace.dispose();
      }
      bare.push(...(await listenNotifyLatencies(model, url, `cross-floor-${run}`)));
    }
  } finally {
    await model.close();
    stopPostgresCluster(cluster);
    delete process.env.VV_TEST_POSTGRES_URL;
  }
  const describe = (p: number) =>
    `p${p} latency model write → item/agentMessage/delta read by a subscriber on instance B vs on the owning instance A (PostgreSQL LISTEN/NOTIFY fan-out, ${LOAD.deltas} deltas at ${LOAD.rate}/s)`;
  return {
    p50LatencyOnB: figure({
      value: percentile(onB, 50),
      floor: percentile(onA, 50),
      unit: 'ms',
      runs: RUNS,
      better: 'lower',
      description: describe(50),
    }),
    p99LatencyOnB: figure({
      value: percentile(onB, 99),
      floor: percentile(onA, 99),
      unit: 'ms',
      runs: RUNS,
      better: 'lower',
      description: describe(99),
    }),
    p99LatencyOnBVsListenNotify: figure({
      value: percentile(onB, 99),
      floor: percentile(bare, 99),
      unit: 'ms',
      runs: RUNS,
      better: 'lower',
      description: `p99 latency model write → item/agentMessage/delta read by a subscriber on instance B, vs a bare LISTEN/NOTIFY floor: a plain Node process pg_notify()ing each notification text of the same stream, another LISTENing and writing it to stdout (${LOAD.deltas} deltas at ${LOAD.rate}/s)`,
      details: { floorP50Ms: percentile(bare, 50), onBP50Ms: percentile(onB, 50) },
      target: { on: 'ratio', bound: 'max', limit: 1.5 },
    }),
  };
}
