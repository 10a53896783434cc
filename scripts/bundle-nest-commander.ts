/**
 * Build step: bundles nest-commander (with commander, inquirer, cosmiconfig …) into
 * dist/cli/nest-commander.js, over tsc's re-export shim (src/cli/nest-commander.ts). Packages the
 * App Server itself depends on stay external, so the CLI shares them with the rest of the program;
 * `typescript` (cosmiconfig's loader for .ts config files) and `@fig/complete-commander` (shell
 * completion, with prettier) are loaded lazily by code the CLI never runs, so they stay out.
 * `inquirer` stays out too (cli-bundle/stand-ins.ts).
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INQUIRER, standIns } from './cli-bundle/stand-ins';

const root = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const shared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
const outfile = join(root, 'dist', 'cli', 'nest-commander.js');

build({
  stdin: { contents: "module.exports = require('nest-commander');", resolveDir: root, loader: 'js' },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  outfile,
  external: [...shared.flatMap((name) => [name, `${name}/*`]), 'typescript', '@fig/complete-commander'],
  plugins: [standIns([INQUIRER])],
  legalComments: 'eof',
  logLevel: 'warning',
}).then(
  () => process.stdout.write(`bundled nest-commander into ${outfile}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
