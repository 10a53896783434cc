/**
 * Where a paced delta's latency goes: runs the streaming benchmark's paced load through fresh
 * servers with delivery-stamps.js preloaded and splits each slow delta's latency (model write →
 * client read) into `net` (model write → the server's socket read), `server` (read → stdout flush)
 * and `pipe` (flush → the client's read), with the GCs and sqlite3 statements around them. A stall
 * in `net` or `pipe` is the server not being scheduled or another process's pause as often as it
 * is the server's own work; only `server` is work on the delta's path.
 *   npx ts-node --transpile-only bench/profiling/paced-decompose.ts [rounds] [deltas] [rate]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StreamedTurn } from '../support/streamed-turn';
import { percentile } from '../support/stats';

interface Stamps {
  /** Socket-read time of each content fragment, in stream order (the role chunk's empty one first). */
  reads: number[];
  /** stdout flush time of each delta, in order. */
  flushes: number[];
  gcs: Array<{ atUs: number; kind: string; ms: number }>;
  statements: Array<{ calledUs: number; doneUs: number; sql: string }>;
}

function readStamps(dir: string): Stamps {
  const file = readdirSync(dir).find((name) => name.startsWith('stamps.'));
  if (file === undefined) throw new Error(`no stamps in ${dir}: was delivery-stamps.js preloaded?`);
  const stamps: Stamps = { reads: [], flushes: [], gcs: [], statements: [] };
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    const [kind, ...fields] = line.split(' ');
    if (kind === 'R' || kind === 'F') {
      const target = kind === 'R' ? stamps.reads : stamps.flushes;
      for (let count = Number(fields[1]); count > 0; count -= 1) target.push(Number(fields[0]));
    } else if (kind === 'G') {
      stamps.gcs.push({ atUs: Number(fields[0]), kind: fields[1], ms: Number(fields[2]) });
    } else if (kind === 'S') {
      stamps.statements.push({
        calledUs: Number(fields[0]),
        doneUs: Number(fields[1]),
        sql: fields.slice(2).join(' '),
      });
    }
  }
  return stamps;
}

const ms = (us: number) => (us / 1000).toFixed(1);

function report(round: number, turn: StreamedTurn, stamps: Stamps): void {
  const writes = turn.writeTimesUs;
  const clientReads = turn.readAtNs.map((at) => Number(at / 1000n));
  // The role chunk's empty content comes before fragment 0.
  const reads = stamps.reads.slice(stamps.reads.length - writes.length);
  const { flushes } = stamps;
  if (flushes.length !== writes.length)
    throw new Error(`${flushes.length} flushes for ${writes.length} deltas`);
  const latencies = writes.map((written, index) => clientReads[index] - written);
  const p99 = percentile(latencies, 99);
  const start = writes[0];
  console.log(`round ${round}: p99 ${ms(p99)} ms, p50 ${ms(percentile(latencies, 50))} ms`);
  const pauses = stamps.gcs
    .filter((gc) => gc.kind !== 'minor' || gc.ms >= 1.5)
    .map((gc) => `${ms(gc.atUs - start)}:${gc.kind}:${gc.ms.toFixed(1)}`);
  console.log(`  GCs (ms from the first write; minor ones from 1.5 ms): ${pauses.join(' ')}`);
  let previous = -10;
  const totals = { net: 0, server: 0, pipe: 0, count: 0 };
  latencies.forEach((latency, index) => {
    if (latency < p99) return;
    const net = reads[index] - writes[index];
    const server = flushes[index] - reads[index];
    const pipe = clientReads[index] - flushes[index];
    totals.net += net;
    totals.server += server;
    totals.pipe += pipe;
    totals.count += 1;
    // One line per cluster of slow deltas: its first one.
    if (index - previous > 3) {
      console.log(
        `  delta ${index} at ${ms(writes[index] - start)} ms: net ${ms(net)} server ${ms(server)} pipe ${ms(pipe)} = ${ms(latency)}`,
      );
    }
    previous = index;
  });
  const mean = (sum: number) => ms(sum / totals.count);
  console.log(
    `  deltas at or above p99: ${totals.count}, mean net ${mean(totals.net)} server ${mean(totals.server)} pipe ${mean(totals.pipe)} ms`,
  );
  const firstStatements = stamps.statements.filter(
    (statement) => statement.doneUs > start - 30_000 && statement.calledUs < flushes[0],
  );
  console.log(
    `  first delta: read ${ms(reads[0] - start)} flushed ${ms(flushes[0] - start)} ms; statements before it: ` +
      firstStatements
        .map(
          (statement) =>
            `${ms(statement.calledUs - start)}..${ms(statement.doneUs - start)} ${statement.sql}`,
        )
        .join(' | '),
  );
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const deltas = Number(process.argv[3] ?? 3000);
  const rate = Number(process.argv[4] ?? 1000);
  const dir = mkdtempSync(join(tmpdir(), 'paced-decompose-'));
  process.env.STAMP_LOG = join(dir, 'stamps');
  process.env.BENCH_SERVER_NODE_ARGS = `-r ${resolve(__dirname, 'delivery-stamps.js')}`;
  // Imported after the environment is set: the launcher reads BENCH_SERVER_NODE_ARGS once.
  const { DeltaStreamModelProcess } = await import('../support/delta-stream-model.process');
  const { streamThroughServer } = await import('../support/streamed-turn');
  const model = await DeltaStreamModelProcess.start();
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const name of readdirSync(dir)) rmSync(join(dir, name));
      const turn = await streamThroughServer(
        model,
        `decompose-${round}`,
        { deltas, rate },
        { timestamps: true },
      );
      report(round, turn, readStamps(dir));
    }
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Not diagnostic-server.ts's runDiagnostic: importing that module loads the launcher before main sets
// BENCH_SERVER_NODE_ARGS.
void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
