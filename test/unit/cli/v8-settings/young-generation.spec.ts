/**
 * The server's young-generation cap (src/cli/v8-settings/young-generation.ts). Each case runs in a
 * fresh node process: V8 flags are process-wide, and the cap is about a heap from its start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';
import { growthFactorSizesYoungGeneration } from '../../../../src/cli/v8-settings/young-generation';

const MODULE_SOURCE = resolve(__dirname, '../../../../src/cli/v8-settings/young-generation.ts');
const MIB = 1024 * 1024;

/**
 * The module as CommonJS, transpiled here: a child loading it through ts-node would have grown its
 * young generation past the cap while loading the compiler, before the module ran.
 */
const MODULE_JS = transpileModule(readFileSync(MODULE_SOURCE, 'utf8'), {
  compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 },
}).outputText;

/** `const young = <the module's exports>;` for a child script. */
const LOAD_MODULE = `const young = {}; new Function('exports', 'require', ${JSON.stringify(MODULE_JS)})(young, require);`;

/** Runs `script` in a new node process; returns its stdout. */
function runNode(script: string): string {
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node exited ${result.status}: ${result.stderr}`);
  return result.stdout.trim();
}

/**
 * Allocates 2,000,000 small objects with the last 20,000 always alive, like a stream's deltas in
 * flight, yielding to the event loop between rounds as a server does; prints the committed young
 * generation in bytes.
 */
const CHURN = `
  const { getHeapSpaceStatistics } = require('node:v8');
  const ring = new Array(20000);
  let n = 0;
  const round = () => {
    for (let i = 0; i < 10000; i += 1, n += 1) ring[n % ring.length] = { n, text: 'chunk ' + n };
    if (n < 2000000) return setImmediate(round);
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size));
  };
  round();
`;

/** V8 13 (Node 24) grows the young generation by its growth factor; V8 14 (Node 26) does not. */
const FACTOR_SIZED = Number(process.versions.v8.split('.')[0]) < 14;

describe('young generation cap', () => {
  it('applies to V8 before 14 only', () => {
    expect(growthFactorSizesYoungGeneration('13.6.233.17-node.63')).toBe(true);
    expect(growthFactorSizesYoungGeneration('14.6.202.34-node.40')).toBe(false);
    expect(growthFactorSizesYoungGeneration()).toBe(FACTOR_SIZED);
  });

  (FACTOR_SIZED ? it : it.skip)(
    'stops the young generation at 16 MiB while objects in flight keep surviving scavenges',
    () => {
      const capped = Number(runNode(`${LOAD_MODULE} young.capYoungGeneration(); ${CHURN}`));
      const uncapped = Number(runNode(CHURN));
      expect(capped).toBe(16 * MIB);
      // The same load without the cap: V8 grows it further, which is what the cap is for.
      expect(uncapped).toBeGreaterThan(16 * MIB);
    },
  );

  (FACTOR_SIZED ? it.skip : it)(
    'on V8 14 and later it changes no flag: a code cache made after it is accepted by a later start',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'young-generation-'));
      try {
        const source = JSON.stringify('function answer() { return 6 * 7; } answer();');
        runNode(`${LOAD_MODULE}
        const { Script } = require('node:vm');
        young.capYoungGeneration(0);
        const script = new Script(${source}, { filename: 'answer.js' });
        script.runInThisContext();
        require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'after-cap'))}, script.createCachedData());
      `);
        const rejected = runNode(
          `const { Script } = require('node:vm');
         const cachedData = require('node:fs').readFileSync(${JSON.stringify(join(dir, 'after-cap'))});
         process.stdout.write(String(new Script(${source}, { filename: 'answer.js', cachedData }).cachedDataRejected));`,
        );
        expect(rejected).toBe('false');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  (FACTOR_SIZED ? it : it.skip)(
    'a code cache made through withV8DefaultFlags is accepted by a later start; one made under the cap is not',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'young-generation-'));
      try {
        const source = JSON.stringify('function answer() { return 6 * 7; } answer();');
        runNode(`${LOAD_MODULE}
        const { Script } = require('node:vm');
        const { writeFileSync } = require('node:fs');
        const { capYoungGeneration, withV8DefaultFlags } = young;
        capYoungGeneration(0);
        const script = new Script(${source}, { filename: 'answer.js' });
        script.runInThisContext();
        writeFileSync(${JSON.stringify(join(dir, 'through-defaults'))}, withV8DefaultFlags(() => script.createCachedData()));
        writeFileSync(${JSON.stringify(join(dir, 'under-cap'))}, script.createCachedData());
      `);
        const rejected = (file: string): string =>
          runNode(
            `const { Script } = require('node:vm');
           const cachedData = require('node:fs').readFileSync(${JSON.stringify(join(dir, file))});
           process.stdout.write(String(new Script(${source}, { filename: 'answer.js', cachedData }).cachedDataRejected));`,
          );
        expect(rejected('through-defaults')).toBe('false');
        expect(rejected('under-cap')).toBe('true');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
