/**
 * Records the protocol transcripts of docs/transcripts/ from the REAL built CLI: every scenario spawns
 * `node dist/main.js app-server --listen stdio …` with a scripted model file and a temp store and
 * workspace, drives it like a client, and writes every line it wrote or read. It builds nothing
 * itself: run `npm run build` first.
 *
 *   npx ts-node --transpile-only scripts/generate-doc-transcripts.ts [scenario-name…]
 *
 * Without names every scenario is recorded. The index (docs/transcripts/README.md) is always rewritten.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Sandbox } from './doc-transcripts/sandbox';
import type { Scenario } from './doc-transcripts/scenario';
import { SCENARIOS } from './doc-transcripts/scenarios';
import { renderTranscriptIndex } from './doc-transcripts/transcript-index';
import { formatTranscript, parseTranscript, type TranscriptLine } from './doc-transcripts/transcript-format';
import { TranscriptSession } from './doc-transcripts/transcript-session';

const REPOSITORY = resolve(__dirname, '..');
const MAIN = join(REPOSITORY, 'dist', 'main.js');
const OUTPUT_DIR = join(REPOSITORY, 'docs', 'transcripts');

async function record(scenario: Scenario): Promise<TranscriptLine[]> {
  const sandbox = Sandbox.create(scenario.modelSteps);
  const session = new TranscriptSession(sandbox.launch(MAIN, scenario.extraArgs ?? []));
  try {
    // The server must always be stopped; a scenario failure wins over the exit code it causes.
    const failure = await scenario.run(session).then(
      () => null,
      (error: unknown) => error,
    );
    const exitCode = await session.finish();
    if (failure !== null) throw failure;
    if (exitCode !== 0) throw new Error(`${scenario.name}: the server exited with ${exitCode}`);
    if (session.stderr.trim() !== '') {
      throw new Error(`${scenario.name}: the server wrote to stderr:\n${session.stderr}`);
    }
    scenario.verify?.(sandbox.path('workspace'));
    return session.lines;
  } finally {
    sandbox.dispose();
  }
}

function selectScenarios(names: readonly string[]): Scenario[] {
  if (names.length === 0) return [...SCENARIOS];
  return names.map((name) => {
    const scenario = SCENARIOS.find((candidate) => candidate.name === name);
    if (scenario === undefined) {
      throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
    }
    return scenario;
  });
}

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} not found: run \`npm run build\` first`);
  const selected = selectScenarios(process.argv.slice(2));
  mkdirSync(OUTPUT_DIR, { recursive: true });
  for (const scenario of selected) {
    const lines = await record(scenario);
    writeFileSync(join(OUTPUT_DIR, `${scenario.name}.jsonl`), formatTranscript(lines));
    console.log(`${scenario.name}.jsonl: ${lines.length} lines`);
  }
  const recorded = new Map<string, TranscriptLine[]>();
  for (const scenario of SCENARIOS) {
    const file = join(OUTPUT_DIR, `${scenario.name}.jsonl`);
    if (existsSync(file)) recorded.set(scenario.name, parseTranscript(readFileSync(file, 'utf8')));
  }
  writeFileSync(join(OUTPUT_DIR, 'README.md'), renderTranscriptIndex(SCENARIOS, recorded));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
