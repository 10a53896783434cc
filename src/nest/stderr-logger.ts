/**
 * Nest's ConsoleLogger writes log/warn/debug to stdout, which is reserved for the protocol
 * (docs/spec/protocol.md §1.1). This logger keeps Nest's format but writes every level to fd 2.
 *
 * By default only warnings and errors are printed: Nest's bootstrap lines would otherwise fill a
 * client's stderr pane on every start. `VV_AGENT_LOG_LEVEL` (`error`, `warn`, `log`, `debug`,
 * `verbose`) raises or lowers the threshold.
 */
import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

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

export class StderrLogger extends ConsoleLogger {
  constructor(context = 'AppServer', options: ConsoleLoggerOptions = {}) {
    super(context, {
      colors: process.stderr.isTTY === true,
      logLevels: logLevelsFor(process.env.VV_AGENT_LOG_LEVEL),
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
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
