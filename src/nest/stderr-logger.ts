/**
 * Nest's ConsoleLogger writes log/warn/debug to stdout, which is reserved for the protocol
 * (docs/spec/protocol.md §1.1). This logger keeps Nest's format but writes every level to fd 2.
 *
 * By default only warnings and errors are printed: Nest's bootstrap lines would otherwise fill a
 * client's stderr pane on every start. `VV_AGENT_LOG_LEVEL` (`error`, `warn`, `log`, `debug`,
 * `verbose`) raises or lowers the threshold.
 */
import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';
import { jsonLogLine, type JsonLogLevel } from './log-line';

const LEVELS_BY_THRESHOLD: Record<string, LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** The log levels enabled by a `VV_AGENT_LOG_LEVEL` value (unknown or absent → `warn`). */
export function logLevelsFor(threshold: string | undefined): LogLevel[] {
  return LEVELS_BY_THRESHOLD[threshold?.trim().toLowerCase() ?? ''] ?? LEVELS_BY_THRESHOLD.warn;
}

/** docs/spec/observability.md §4: `--log-level` names these; each enables itself and the levels above. */
const NEST_LEVELS_OF: Record<JsonLogLevel, LogLevel[]> = {
  error: LEVELS_BY_THRESHOLD.error,
  warn: LEVELS_BY_THRESHOLD.warn,
  info: LEVELS_BY_THRESHOLD.log,
  debug: LEVELS_BY_THRESHOLD.verbose,
};

const JSON_LEVEL_OF: Record<LogLevel, JsonLogLevel> = {
  fatal: 'error',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'debug',
};

/** Set once by the CLI from `--log-format` / `--log-level`, before any logger is made. */
const settings: { json: boolean; levels: LogLevel[] | null } = { json: false, levels: null };

export function configureStderrLogs(format: 'text' | 'json', level: JsonLogLevel | null): void {
  settings.json = format === 'json';
  settings.levels = level === null ? null : NEST_LEVELS_OF[level];
}

export class StderrLogger extends ConsoleLogger {
  constructor(context = 'AppServer', options: ConsoleLoggerOptions = {}) {
    super(context, {
      colors: !settings.json && process.stderr.isTTY === true,
      logLevels: settings.levels ?? logLevelsFor(process.env.VV_AGENT_LOG_LEVEL),
      ...options,
    });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    if (settings.json) {
      for (const message of messages) {
        const text = message instanceof Error ? message.message : String(message);
        process.stderr.write(jsonLogLine(JSON_LEVEL_OF[logLevel ?? 'log'], text, { context }));
      }
      return;
    }
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
