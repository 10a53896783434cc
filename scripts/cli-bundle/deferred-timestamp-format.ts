/**
 * An esbuild plugin for the CLI bundle: Nest's two logger modules build an `Intl.DateTimeFormat` when
 * they load, and the first `Intl.DateTimeFormat` of a process loads ICU's locale and time-zone data
 * (~30 ms on this machine, a tenth of start-up). The App Server loads @nestjs/common at every start
 * but formats a Nest timestamp only when Nest's own logger prints one. The plugin makes the
 * formatter on its first `format` call, with the same locale and options, so output is unchanged.
 *
 * The rewrite matches one exact statement per module; if an upgrade of @nestjs/common changes it,
 * the build fails instead of silently bundling the eager formatter.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

const EAGER = 'const dateTimeFormatter = new Intl.DateTimeFormat(undefined, {';
const DEFERRED =
  'const dateTimeFormatter = ((options) => { let formatter; return { format: (date) => ' +
  '(formatter ??= new Intl.DateTimeFormat(undefined, options)).format(date) }; })({';

/** Nest's logger modules, by path inside the package. */
export const NEST_LOGGER_MODULES =
  /[\\/]@nestjs[\\/]common[\\/]services[\\/](console-logger|logger)\.service\.js$/;

/** `source` with its formatter deferred; throws when the statement is not there exactly once. */
export function deferTimestampFormat(source: string, path: string): string {
  const parts = source.split(EAGER);
  if (parts.length !== 2)
    throw new Error(`${path}: expected one \`${EAGER}\` statement, found ${parts.length - 1}`);
  return parts.join(DEFERRED);
}

export const deferredTimestampFormat: Plugin = {
  name: 'deferred-timestamp-format',
  setup(build) {
    build.onLoad({ filter: NEST_LOGGER_MODULES }, ({ path }) => ({
      contents: deferTimestampFormat(readFileSync(path, 'utf8'), path),
      loader: 'js',
    }));
  },
};
