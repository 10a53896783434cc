/**
 * Runs every benchmark (each figure is measured beside its floor in the same run), prints a table
 * and writes bench/results.json. `npm run bench` builds first; the benchmarks spawn dist/main.js.
 * Exit code 1 when a benchmark failed (its entry in results.json then holds `{ error }`).
 * `ts-node --transpile-only bench/run.ts streaming replay` runs only the named benchmarks and
 * updates their entries in an existing results.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { runColdStartBenchmark } from './cold-start.bench';
import { runConcurrentTurnsBenchmark } from './concurrent-turns.bench';
import { runCrossInstanceBenchmark } from './cross-instance.bench';
import { runFirstTokenBenchmark } from './first-token.bench';
import { runLongTurnBenchmark } from './long-turn.bench';
import { runMemoryBenchmark } from './memory.bench';
import { runPersistenceBenchmark } from './persistence.bench';
import { runReplayBenchmark } from './replay.bench';
import { runRequestThroughputBenchmark } from './request-throughput.bench';
import { runSandboxBenchmark } from './sandbox.bench';
import { runSseBenchmark } from './sse-parse.bench';
import { runStreamingBenchmark } from './streaming.bench';
import { runTracingBenchmark } from './tracing.bench';
import { runWebSocketBenchmark } from './websocket.bench';
import { figure, type FigureGroup } from './support/figure';
import { formatTable, formatTargetSummary } from './support/results-table';

const RESULTS_PATH = resolve(__dirname, 'results.json');

async function sseParsing(): Promise<FigureGroup> {
  const result = await runSseBenchmark();
  return {
    parserThroughput: figure({
      value: result.valueMBps,
      floor: result.floorMBps,
      unit: 'MB/s',
      runs: result.runs,
      better: 'higher',
      description:
        'SseParser + StreamAssembler over a ~10 MB chat-completions stream vs JSON.parse of the same payloads',
    }),
  };
}

const BENCHMARKS: ReadonlyArray<readonly [string, () => Promise<FigureGroup>]> = [
  ['coldStart', runColdStartBenchmark],
  ['requestThroughput', runRequestThroughputBenchmark],
  ['streaming', runStreamingBenchmark],
  ['tracing', runTracingBenchmark],
  ['longTurn', runLongTurnBenchmark],
  ['replay', runReplayBenchmark],
  ['memory', runMemoryBenchmark],
  ['sseParsing', sseParsing],
  ['persistence', runPersistenceBenchmark],
  ['crossInstance', runCrossInstanceBenchmark],
  ['firstToken', runFirstTokenBenchmark],
  ['websocket', runWebSocketBenchmark],
  ['concurrentTurns', runConcurrentTurnsBenchmark],
  ['sandbox', runSandboxBenchmark],
];

async function main(): Promise<number> {
  const only = new Set(process.argv.slice(2));
  const results: Record<string, unknown> =
    only.size > 0 && existsSync(RESULTS_PATH)
      ? (JSON.parse(readFileSync(RESULTS_PATH, 'utf8')) as Record<string, unknown>)
      : {};
  const groups: Array<[string, FigureGroup]> = [];
  let failed = false;
  const began = Date.now();
  // Figures are only comparable on one Node line (docs/performance-notes.md): say which up front.
  process.stderr.write(
    `bench: Node ${process.version} (V8 ${process.versions.v8}) on ${cpus().length} cores\n`,
  );
  for (const [name, run] of BENCHMARKS) {
    if (only.size > 0 && !only.has(name)) continue;
    const started = Date.now();
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const group = await run();
      results[name] = group;
      groups.push([name, group]);
      process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    } catch (error) {
      failed = true;
      results[name] = { error: error instanceof Error ? error.message : String(error) };
      process.stderr.write(
        `bench: ${name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
  }
  const meta = {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    startedAt: new Date(began).toISOString(),
    durationSeconds: (Date.now() - began) / 1000,
  };
  writeFileSync(RESULTS_PATH, `${JSON.stringify({ ...results, meta }, null, 2)}\n`);
  console.log(formatTable(groups));
  console.log(`\n${formatTargetSummary(groups)}`);
  console.log(
    `\n${meta.durationSeconds.toFixed(0)} s on Node ${meta.node}, ${meta.cpus} cores (${meta.cpuModel}); results in ${RESULTS_PATH}`,
  );
  return failed ? 1 : 0;
}

void main().then((code) => {
  process.exitCode = code;
});
