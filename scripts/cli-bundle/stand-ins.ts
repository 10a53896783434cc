/**
 * An esbuild plugin for the CLI bundles: leaves out modules the CLI never runs. Every start reads
 * dist/cli-bundle.js whole (~7 ms per MB on the benchmark machine), used or not.
 *
 * Each left-out module is replaced by one with the same export names, taken from the real module at
 * build time, whose getters throw the reason. Only code for a feature the CLI does not have reads
 * them, so the CLI never does; if it ever did, it would fail at once with the reason instead of
 * with a missing export. A stand-in that matches no bundled module fails the build (the package
 * moved, and the bundle would silently carry it again), and so does one imported by a module not
 * known to read it only for what the CLI does not do.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';
import { endErrors, loadByRule } from './plugin-rules';

export interface StandIn {
  /** Matches the absolute paths of the modules left out. */
  modules: RegExp;
  /**
   * Matches the paths of the modules known to read them only for what the CLI does not do. Another
   * importer fails the build: after an upgrade it could read a stand-in on a path the CLI takes.
   */
  importers: RegExp;
  /** Why a module it matches is not there; `path` is the module's. */
  reason(path: string): string;
}

/** The stand-in's source: one throwing getter per name the real module exports. */
export function standInSource(exportNames: readonly string[], reason: string): string {
  return [
    '"use strict";',
    'Object.defineProperty(exports, "__esModule", { value: true });',
    `for (const name of ${JSON.stringify(exportNames)})`,
    '  Object.defineProperty(exports, name, {',
    '    enumerable: true,',
    `    get: () => { throw new Error(${JSON.stringify(reason)}); },`,
    '  });',
    '',
  ].join('\n');
}

/** The names the module at `path` exports (it is loaded at build time to see them). */
export function exportNames(path: string): string[] {
  return Object.keys(createRequire(path)(path) as object).filter((name) => name !== '__esModule');
}

/** `path` as the stand-in patterns see it: absolute-looking, whatever esbuild's metafile made of it. */
const rooted = (path: string): string => (path.startsWith('/') ? path : `/${path}`);

/** The build errors of `list` against the bundle's imports (`inputs` of esbuild's metafile). */
export function standInErrors(
  list: readonly StandIn[],
  used: ReadonlySet<StandIn>,
  inputs: Record<string, { imports: ReadonlyArray<{ path: string }> }>,
): string[] {
  const errors = list
    .filter((standIn) => !used.has(standIn))
    .map((standIn) => `no bundled module matches ${String(standIn.modules)}`);
  for (const [importer, { imports }] of Object.entries(inputs))
    for (const { path } of imports)
      for (const standIn of list)
        if (
          standIn.modules.test(rooted(path)) &&
          !standIn.modules.test(rooted(importer)) &&
          !standIn.importers.test(rooted(importer))
        )
          errors.push(
            `${importer} imports ${path}, which is left out of the bundle (scripts/cli-bundle/stand-ins.ts)`,
          );
  return errors;
}

export function standIns(list: readonly StandIn[]): Plugin {
  return {
    name: 'stand-ins',
    setup(build) {
      build.initialOptions.metafile = true;
      const used = loadByRule(
        build,
        list,
        (standIn) => standIn.modules,
        (standIn, path) => standInSource(exportNames(path), standIn.reason(path)),
      );
      build.onEnd((result) =>
        result.errors.length > 0 || result.metafile === undefined
          ? undefined
          : endErrors(standInErrors(list, used, result.metafile.inputs)),
      );
    },
  };
}

/**
 * The TypeORM drivers other than SQLite and PostgreSQL, ~1.1 MB of source: the App Server's store is
 * one of those two (docs/spec/postgres.md §1). Only code for another database reads them (DriverFactory's case
 * for it, SQL Server parameters in the migration table and query cache).
 */
export const UNUSED_TYPEORM_DRIVERS: StandIn = {
  modules:
    /[\\/]node_modules[\\/]typeorm[\\/]driver[\\/](aurora-mysql|aurora-postgres|better-sqlite3|capacitor|cockroachdb|cordova|expo|mongodb|mysql|nativescript|oracle|react-native|sap|spanner|sqljs|sqlserver)[\\/].+\.js$/,
  importers:
    /[\\/]node_modules[\\/]typeorm[\\/](driver[\\/]DriverFactory|migration[\\/]MigrationExecutor|cache[\\/]DbQueryResultCache|index)\.js$/,
  reason: (path) =>
    `TypeORM's "${/[\\/]driver[\\/]([^\\/]+)[\\/]/.exec(path)?.[1] ?? '?'}" driver is not bundled with the vv-agent CLI: its store is SQLite or PostgreSQL`,
};

/**
 * libphonenumber-js's metadata (300 KB), which only class-validator's IsPhoneNumber reads; no DTO of
 * the App Server validates a phone number.
 */
export const PHONE_NUMBER_METADATA: StandIn = {
  modules: /[\\/]node_modules[\\/]libphonenumber-js[\\/]max[\\/]index\.c?js$/,
  importers: /[\\/]node_modules[\\/]class-validator[\\/]cjs[\\/]decorator[\\/]string[\\/]IsPhoneNumber\.js$/,
  reason: () => 'libphonenumber-js (IsPhoneNumber) is not bundled with the vv-agent CLI',
};

/**
 * inquirer, which nest-commander requires for `@Question` sets and `InquirerService`: the CLI's
 * commands take flags only, and a server's stdin is the protocol. With its prompts, lodash, ora,
 * readable-stream, chardet and iconv-lite it is ~740 KB of the ~880 KB nest-commander adds.
 * nest-commander takes it as `__importStar(require("inquirer"))`, which copies getters without
 * reading them.
 */
export const INQUIRER: StandIn = {
  modules: /[\\/]node_modules[\\/]inquirer[\\/]lib[\\/]inquirer\.js$/,
  importers: /[\\/]node_modules[\\/]nest-commander[\\/]src[\\/]command-runner\.module\.js$/,
  reason: () => 'inquirer is not bundled with the vv-agent CLI: its commands take no interactive input',
};
