/**
 * An esbuild plugin for the CLI bundle: defers a module's top-level `require`s that only its
 * functions use. `const x_1 = require("pkg");` (or `tslib_1.__importDefault(require("pkg"))`) becomes
 * a loader called where `x_1.` was read, so "pkg" loads when that code first runs. TypeORM's
 * DriverFactory requires all eighteen drivers with their query runners to build one; its
 * PlatformTools requires SQL highlighting, formatting, colours and dotenv that only its logging uses;
 * and its loggers, entity-glob loader and insert builder load `debug`, `app-root-path`, `glob` and
 * `uuid` for options and column types the App Server does not use.
 *
 * A declaration is deferred only when every other mention of its name reads a member (`x_1.`), so
 * code that passes the module object around keeps it eager. A rule naming a require that cannot be
 * deferred, or matching no module, fails the build: an upgrade that changes the shape must not
 * silently bring the eager loading back.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

export interface DeferredRequireRule {
  /** Matches the absolute path of the module whose requires are deferred. */
  module: RegExp;
  /** The specifiers to defer; `all` defers every top-level require that can be. */
  requires: 'all' | readonly string[];
}

const DECLARATION =
  /^(?:const|var) (\w+) = ((?:tslib_1\.__import(?:Default|Star)\()?require\("([^"]+)"\)\)?);$/gm;

/** String literals and `//` comments of one line of tsc output, which a rewrite leaves alone. */
const NOT_CODE = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\/.*$/g;

/** `line` with `rewrite` applied to its code only (not to strings or a trailing comment). */
function inCode(line: string, rewrite: (code: string) => string): string {
  let result = '';
  let from = 0;
  for (const match of line.matchAll(NOT_CODE)) {
    result += rewrite(line.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return result + rewrite(line.slice(from));
}

/** Whether `name` appears in code outside its declaration only as `name.` (a member read). */
function onlyMemberReads(lines: readonly string[], declaration: string, name: string): boolean {
  const mention = new RegExp(`\\b${name}\\b(?!\\.)`);
  let otherUse = false;
  let reads = 0;
  for (const line of lines) {
    if (line === declaration) continue;
    inCode(line, (code) => {
      if (mention.test(code)) otherUse = true;
      if (code.includes(`${name}.`)) reads += 1;
      return code;
    });
  }
  return !otherUse && reads > 0;
}

/**
 * `source` (the module at `path`) with the rule's requires deferred; throws when a named one cannot
 * be, or when nothing is.
 */
export function deferRequires(
  source: string,
  path: string,
  requires: DeferredRequireRule['requires'],
): string {
  const lines = source.split('\n');
  const deferred: string[] = [];
  let body = source;
  for (const [declaration, name, expression, specifier] of source.matchAll(DECLARATION)) {
    const named = requires === 'all' || requires.includes(specifier);
    if (!named) continue;
    if (!onlyMemberReads(lines, declaration, name)) {
      if (requires === 'all') continue;
      throw new Error(
        `${path}: \`${name}\` (require("${specifier}")) is used other than by reading a member`,
      );
    }
    deferred.push(specifier);
    const loader = `${name}$load`;
    const lazy = `let ${name}$loaded;\nfunction ${loader}() { return (${name}$loaded ??= ${expression}); }`;
    const memberRead = new RegExp(`\\b${name}\\.`, 'g');
    body = body
      .split('\n')
      .map((line) =>
        line === declaration
          ? lazy
          : // Parenthesized, so `new x_1.Driver(…)` stays a construction of the member, not of the loader.
            inCode(line, (code) => code.replace(memberRead, () => `(${loader}()).`)),
      )
      .join('\n');
  }
  const missing = requires === 'all' ? [] : requires.filter((specifier) => !deferred.includes(specifier));
  if (deferred.length === 0 || missing.length > 0)
    throw new Error(`${path}: no top-level require of ${missing.join(', ') || 'any module'} to defer`);
  return body;
}

export function deferredRequires(rules: readonly DeferredRequireRule[]): Plugin {
  return {
    name: 'deferred-requires',
    setup(build) {
      const applied = new Set<DeferredRequireRule>();
      for (const rule of rules)
        build.onLoad({ filter: rule.module }, ({ path }) => {
          applied.add(rule);
          return { contents: deferRequires(readFileSync(path, 'utf8'), path, rule.requires), loader: 'js' };
        });
      build.onEnd((result) => {
        for (const rule of rules)
          if (!applied.has(rule) && result.errors.length === 0)
            result.errors.push({
              id: 'deferred-requires',
              pluginName: 'deferred-requires',
              text: `no bundled module matches ${String(rule.module)}`,
              location: null,
              notes: [],
              detail: undefined,
            });
      });
    },
  };
}

/** The requires of TypeORM's that the App Server's start-up never uses. */
export const TYPEORM_DEFERRED_REQUIRES: readonly DeferredRequireRule[] = [
  { module: /[\\/]typeorm[\\/]driver[\\/]DriverFactory\.js$/, requires: 'all' },
  {
    module: /[\\/]typeorm[\\/]platform[\\/]PlatformTools\.js$/,
    requires: ['ansis', 'dotenv', 'sql-highlight', '@sqltools/formatter'],
  },
  { module: /[\\/]typeorm[\\/]util[\\/]StringUtils\.js$/, requires: ['sha.js'] },
  { module: /[\\/]typeorm[\\/]util[\\/]DirectoryExportedClassesLoader\.js$/, requires: ['glob'] },
  { module: /[\\/]typeorm[\\/]logger[\\/]FileLogger\.js$/, requires: ['app-root-path'] },
  { module: /[\\/]typeorm[\\/]logger[\\/]DebugLogger\.js$/, requires: ['debug'] },
  { module: /[\\/]typeorm[\\/]query-builder[\\/]InsertQueryBuilder\.js$/, requires: ['uuid'] },
];
