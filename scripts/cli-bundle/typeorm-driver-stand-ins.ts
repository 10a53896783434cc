/**
 * An esbuild plugin for the CLI bundle: leaves out the TypeORM drivers the App Server cannot use.
 * Its store is SQLite or PostgreSQL (postgres.md §1); the sixteen other drivers with their query
 * runners are ~1.1 MB of TypeORM's source that every start would read whole.
 *
 * Each module of those drivers is replaced by one with the same export names, taken from the real
 * module at build time, whose getters throw. Only code for that database reads them (DriverFactory's
 * case for it, SQL Server parameters in the migration table and query cache), so the App Server never
 * does; a store of another type fails with the reason instead of a missing-export error.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

/** The driver folders under typeorm/driver that are left out. */
export const UNUSED_TYPEORM_DRIVERS = [
  'aurora-mysql',
  'aurora-postgres',
  'better-sqlite3',
  'capacitor',
  'cockroachdb',
  'cordova',
  'expo',
  'mongodb',
  'mysql',
  'nativescript',
  'oracle',
  'react-native',
  'sap',
  'spanner',
  'sqljs',
  'sqlserver',
] as const;

const DRIVER_MODULE = new RegExp(
  `[\\\\/]node_modules[\\\\/]typeorm[\\\\/]driver[\\\\/](${UNUSED_TYPEORM_DRIVERS.join('|')})[\\\\/].+\\.js$`,
);

/** The stand-in for a module of `driver` exporting `exportNames`. */
export function driverStandInSource(driver: string, exportNames: readonly string[]): string {
  const reason = `TypeORM's "${driver}" driver is not bundled with the vv-agent CLI: its store is SQLite or PostgreSQL`;
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

export const typeormDriverStandIns: Plugin = {
  name: 'typeorm-driver-stand-ins',
  setup(build) {
    build.onLoad({ filter: DRIVER_MODULE }, ({ path }) => {
      const driver = DRIVER_MODULE.exec(path)?.[1] ?? 'unknown';
      const names = Object.keys(createRequire(path)(path) as object);
      return { contents: driverStandInSource(driver, names), loader: 'js' };
    });
  },
};
