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
import { type Plugin, transform } from 'esbuild';
import { failUnusedRules, loadByRule } from './plugin-rules';

export interface DeferredRequireRule {
  /** Matches the absolute path of the module whose requires are deferred. */
  module: RegExp;
  /** The specifiers to defer; `all` defers every top-level require that can be. */
  requires: 'all' | readonly string[];
}

const DECLARATION =
  /^(?:const|var) (\w+) = ((?:tslib_1\.__import(?:Default|Star)\()?require\("([^"]+)"\)\)?);$/gm;

/**
 * String literals and `//` comments of one line of tsc output, which the rewrite leaves alone. A
 * line-based guess (a quote inside a template literal or a regular expression misleads it); what it
 * gets wrong fails the check after the rewrite instead of the program.
 */
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

/** What esbuild puts in place of a name nothing in the module binds (see `unboundUses`). */
const UNBOUND = '__deferred_require_unbound__';

/**
 * How `code` uses `name` where nothing in it binds that name, as esbuild parses it: the text after
 * each use (`.` for a member read). Exact where a line-based look is not: strings, template
 * literals and regular expressions cannot hide or fake a use.
 */
async function unboundUses(code: string, name: string): Promise<string[]> {
  const { code: out } = await transform(code, { loader: 'js', define: { [name]: UNBOUND } });
  return out
    .split(UNBOUND)
    .slice(1)
    .map((after) => after.charAt(0));
}

/**
 * `source` (the module at `path`) with the rule's requires deferred; throws when a named one cannot
 * be, or when nothing is.
 */
export async function deferRequires(
  source: string,
  path: string,
  requires: DeferredRequireRule['requires'],
): Promise<string> {
  const deferred: string[] = [];
  let body = source;
  for (const [declaration, name, expression, specifier] of source.matchAll(DECLARATION)) {
    const named = requires === 'all' || requires.includes(specifier);
    if (!named) continue;
    const withoutDeclaration = body
      .split('\n')
      .filter((line) => line !== declaration)
      .join('\n');
    const uses = await unboundUses(withoutDeclaration, name);
    if (uses.length === 0 || uses.some((after) => after !== '.')) {
      if (requires === 'all') continue;
      throw new Error(
        `${path}: \`${name}\` (require("${specifier}")) is used other than by reading a member`,
      );
    }
    const loader = `${name}$load`;
    const lazy = `let ${name}$loaded;\nfunction ${loader}() { return (${name}$loaded ??= ${expression}); }`;
    const memberRead = new RegExp(`\\b${name}\\.`, 'g');
    const rewritten = body
      .split('\n')
      .map((line) =>
        line === declaration
          ? lazy
          : // Parenthesized, so `new x_1.Driver(…)` stays a construction of the member, not of the loader.
            inCode(line, (code) => code.replace(memberRead, () => `(${loader}()).`)),
      )
      .join('\n');
    // A use the line-based rewrite missed (inside a template literal, say) would be a ReferenceError.
    if ((await unboundUses(rewritten, name)).length > 0) {
      if (requires === 'all') continue;
      throw new Error(`${path}: a use of \`${name}\` (require("${specifier}")) was not rewritten`);
    }
    deferred.push(specifier);
    body = rewritten;
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
      const used = loadByRule(
        build,
        rules,
        (rule) => rule.module,
        (rule, path) => deferRequires(readFileSync(path, 'utf8'), path, rule.requires),
      );
      failUnusedRules(build, rules, used, (rule) => `no bundled module matches ${String(rule.module)}`);
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
