/**
 * Nest's ConsoleLogger writes log/warn/debug to stdout, which is reserved for the protocol
 * (protocol.md §1.1). This logger keeps Nest's format but writes every level to fd 2.
 */
import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

export class StderrLogger extends ConsoleLogger {
  constructor(context = 'AppServer', options: ConsoleLoggerOptions = {}) {
    super(context, { colors: process.stderr.isTTY === true, ...options });
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
