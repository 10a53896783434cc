/** TypeORM logger that writes to stderr only: stdout carries the protocol (docs/spec/protocol.md §1.1). */
import type { Logger, QueryRunner } from 'typeorm';
import { isRunningTurnConflict } from './store-errors';

/** TypeORM's log levels (its `LogLevel` type is not exported from the package root). */
export type TypeOrmLogLevel = 'query' | 'schema' | 'error' | 'warn' | 'info' | 'log' | 'migration';

export type StderrSink = (line: string) => void;

const writeToStderr: StderrSink = (line) => {
  process.stderr.write(line);
};

/**
 * Query parameters are never written: they carry user input (turn input, item text, messages) and
 * whatever secrets it holds; the statements themselves are placeholders only. A failed query is
 * its statement and the driver's message. The refused insert of a second running turn on a
 * thread is not a failure at all: it is how the store tells concurrent turn/starts apart
 * (docs/spec/protocol.md §8.2), answered -32602 to the loser, so it is not logged.
 */
export class StderrTypeOrmLogger implements Logger {
  constructor(
    private readonly levels: readonly TypeOrmLogLevel[] = ['error', 'warn'],
    private readonly sink: StderrSink = writeToStderr,
  ) {}

  logQuery(query: string, _parameters?: unknown[], _queryRunner?: QueryRunner): void {
    if (this.levels.includes('query')) this.write('query', query);
  }

  logQueryError(
    error: string | Error,
    query: string,
    _parameters?: unknown[],
    _queryRunner?: QueryRunner,
  ): void {
    if (!this.levels.includes('error') || isRunningTurnConflict(error)) return;
    this.write('query failed', `${query} -- ${error instanceof Error ? error.message : error}`);
  }

  logQuerySlow(time: number, query: string, _parameters?: unknown[], _queryRunner?: QueryRunner): void {
    if (this.levels.includes('warn')) this.write('slow query', `${time} ms: ${query}`);
  }

  logSchemaBuild(message: string, _queryRunner?: QueryRunner): void {
    if (this.levels.includes('schema')) this.write('schema', message);
  }

  logMigration(message: string, _queryRunner?: QueryRunner): void {
    if (this.levels.includes('migration')) this.write('migration', message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown, _queryRunner?: QueryRunner): void {
    if (this.levels.includes(level)) this.write(level, String(message));
  }

  private write(kind: string, text: string): void {
    this.sink(`[typeorm] ${kind}: ${text}\n`);
  }
}
