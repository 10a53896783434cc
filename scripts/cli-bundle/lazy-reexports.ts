/**
 * An esbuild plugin for the CLI bundle: makes a barrel module (a package index that only re-exports)
 * load each re-exported module when one of its exports is first read, instead of all of them when the
 * barrel loads. Two shapes of tsc output are rewritten:
 * - `__exportStar(require("./x"), exports);` becomes getters for the names "./x" exports, taken by
 *   loading it at build time; `__exportStar`'s rules stay: "default" is skipped and the first module
 *   to export a name wins;
 * - `var x_1 = require("./x");` used only by `Object.defineProperty(exports, "N", { … get: function ()
 *   { return x_1.N; } })` lines loses its declaration, and the getters require "./x" themselves.
 * Anything else in the barrel (side-effect requires, a `var` used elsewhere) stays as it is.
 *
 * class-validator's decorator barrel alone evaluated ~190 modules (every decorator, the `validator`
 * function it wraps, libphonenumber's metadata) for the dozen the App Server's DTOs use; rxjs's
 * index ~200 for the ~20 Nest uses.
 */
// Enumerating Nest's and TypeORM's modules at build time runs their class decorators.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';
import { failUnusedRules, loadByRule } from './plugin-rules';

const STAR_REEXPORT = /^(?:tslib_1\.)?__exportStar\(require\(("\.{1,2}\/[^"]+")\), exports\);$/gm;
const MODULE_VAR = /^var (\w+) = require\(("\.{1,2}\/[^"]+")\);$/gm;
const namedGetter = (variable: string): RegExp =>
  new RegExp(
    `^Object\\.defineProperty\\(exports, "\\w+", \\{ enumerable: true, get: function \\(\\) \\{ return ${variable}\\.\\w+; \\} \\}\\);$`,
  );

const LAZY_EXPORT_STAR = [
  'function __lazyExportStar(target, load, names) {',
  '  for (const name of names)',
  '    if (!Object.prototype.hasOwnProperty.call(target, name))',
  '      Object.defineProperty(target, name, { enumerable: true, get: () => load()[name] });',
  '}',
].join('\n');

/**
 * `source` (the barrel at `path`) with its re-exports made lazy, or null when it has none (an index
 * with code of its own, which stays as it is).
 */
export function lazyReexports(source: string, path: string): string | null {
  const requireFromBarrel = createRequire(path);
  let count = 0;
  let body = source.replace(STAR_REEXPORT, (_line, quoted: string) => {
    count += 1;
    const names = Object.keys(requireFromBarrel(JSON.parse(quoted) as string) as object).filter(
      (name) => name !== 'default',
    );
    return `__lazyExportStar(exports, () => require(${quoted}), ${JSON.stringify(names)});`;
  });
  for (const [declaration, variable, quoted] of [...source.matchAll(MODULE_VAR)]) {
    const lines = body.split('\n');
    const uses = lines.filter((line) => line !== declaration && new RegExp(`\\b${variable}\\b`).test(line));
    const getter = namedGetter(variable);
    if (uses.length === 0 || !uses.every((line) => getter.test(line))) continue;
    count += 1;
    body = lines
      .filter((line) => line !== declaration)
      .map((line) =>
        getter.test(line) ? line.replace(`return ${variable}.`, `return require(${quoted}).`) : line,
      )
      .join('\n');
  }
  return count === 0 ? null : `${body}\n${LAZY_EXPORT_STAR}\n`;
}

/**
 * Barrels (each pattern matches absolute paths) whose re-exports load on first use. A pattern that
 * matched no module with re-exports fails the build: the package moved, and the bundle would load
 * it eagerly again without a word.
 */
export function lazyReexportsOf(barrels: readonly RegExp[]): Plugin {
  return {
    name: 'lazy-reexports',
    setup(build) {
      const used = loadByRule(
        build,
        barrels,
        (filter) => filter,
        (_filter, path) => lazyReexports(readFileSync(path, 'utf8'), path),
      );
      failUnusedRules(
        build,
        barrels,
        used,
        (filter) => `no module matching ${String(filter)} has re-exports to make lazy`,
      );
    },
  };
}

/** class-validator's barrel of decorators (CommonJS build). */
export const CLASS_VALIDATOR_DECORATORS = /[\\/]class-validator[\\/]cjs[\\/]decorator[\\/]decorators\.js$/;

/** TypeORM's package index. */
export const TYPEORM_INDEX = /[\\/]node_modules[\\/]typeorm[\\/]index\.js$/;

/** Every index of the three Nest packages the App Server loads. */
export const NEST_INDEXES =
  /[\\/]node_modules[\\/]@nestjs[\\/](common|core|microservices)[\\/](.+[\\/])?index\.js$/;

/** rxjs's two indexes (CommonJS build): `rxjs` and `rxjs/operators`. */
export const RXJS_INDEXES = /[\\/]node_modules[\\/]rxjs[\\/]dist[\\/]cjs[\\/](operators[\\/])?index\.js$/;
