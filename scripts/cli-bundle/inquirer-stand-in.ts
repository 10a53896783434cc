/**
 * An esbuild plugin for the nest-commander bundle: leaves `inquirer` out. nest-commander's
 * CommandRunnerModule requires it when it loads, for `@Question` sets and `InquirerService`, which the
 * vv-agent CLI never uses: its commands take flags only, and a server's stdin is the protocol.
 * inquirer with its prompts, lodash, ora, readable-stream, chardet and iconv-lite is ~740 KB of the
 * ~880 KB nest-commander adds to dist/cli-bundle.js, which every start reads whole (~7 ms per MB on
 * the benchmark machine).
 *
 * In its place goes a module with the same export names, taken from the installed inquirer at build
 * time, each a getter that throws, so a prompt added to the CLI later fails at once with the reason.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'inquirer-stand-in';

export const INQUIRER_ABSENT =
  'inquirer is not bundled with the vv-agent CLI (its commands take no interactive input; see scripts/cli-bundle/inquirer-stand-in.ts)';

/** The stand-in's source: one throwing getter per export of the real module. */
export function inquirerStandInSource(exportNames: readonly string[]): string {
  return [
    '"use strict";',
    `for (const name of ${JSON.stringify(exportNames)})`,
    '  Object.defineProperty(exports, name, {',
    '    enumerable: true,',
    `    get: () => { throw new Error(${JSON.stringify(INQUIRER_ABSENT)}); },`,
    '  });',
    '',
  ].join('\n');
}

/** Export names of the inquirer that `fromFile` (a file inside nest-commander) resolves. */
export function inquirerExportNames(fromFile: string): string[] {
  const inquirer = createRequire(fromFile)('inquirer') as Record<string, unknown>;
  const names = Object.keys(inquirer);
  if (names.length === 0 || names.includes('default'))
    throw new Error(`inquirer's exports changed shape (${names.join(', ')}); update ${__filename}`);
  return names;
}

/** `nestCommanderEntry`: a file inside nest-commander, from which its inquirer resolves. */
export function inquirerStandIn(nestCommanderEntry: string): Plugin {
  return {
    name: 'inquirer-stand-in',
    setup(build) {
      build.onResolve({ filter: /^inquirer$/ }, () => ({ path: 'inquirer', namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({
        contents: inquirerStandInSource(inquirerExportNames(nestCommanderEntry)),
        loader: 'js',
      }));
    },
  };
}
