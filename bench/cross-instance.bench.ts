/**
 * docs/spec/postgres.md §2 live fan-out: two server instances on one PostgreSQL database (a throwaway
 * cluster, as in the tests); a client on A starts a turn whose model (DeltaStreamModel, paced
 * 1 000 fragments at 500/s, write timestamps) streams; a client on B subscribed with
 * thread/resume. Figure: per-delta latency model write → read by the subscriber on B (value) vs
 * by the subscriber on A, the turn's owner (floor), p50 and p99.
 */
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { createWorkspace, startAppServer, startThread } from './support/app-server-launch';
import { streamDirectiveText } from './support/delta-stream-model';
import { figure, type FigureGroup } from './support/figure';
import { percentile } from './support/stats';
import { collectDeltas } from './support/streamed-turn';
import { startPostgresCluster, stopPostgresCluster } from '../test/support/postgres-cluster';
import { createPostgresDatabase, postgresDatabaseUrl } from '../test/support/store-drivers';

const LOAD = { deltas: 1_000, rate: 500 };
const RUNS = 2;

function latenciesMs(writeTimesUs: number[], readAtNs: bigint[]): number[] {
  return readAtNs.map((read, index) => (Number(read / 1000n) - writeTimesUs[index]) / 1000);
}

export async function runCrossInstanceBenchmark(): Promise<FigureGroup> {
  const cluster = await startPostgresCluster();
  process.env.VV_TEST_POSTGRES_URL = cluster.adminUrl;
  const model = await DeltaStreamModelProcess.start();
  const onA: number[] = [];
  const onB: number[] = [];
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
        onA.push(...latenciesMs(writes, readA.readAtNs));
        onB.push(...latenciesMs(writes, readB.readAtNs));
      } finally {
        await b.close();
        await a.close();
        workspace.dispose();
      }
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
  };
}
