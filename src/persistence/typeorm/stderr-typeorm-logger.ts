/** TypeORM logger that writes to stderr only: stdout carries the protocol (docs/spec/protocol.md §1.1). */
import type { Logger, QueryRunner } from 'typeorm';

/** TypeORM's log levels (its `LogLevel` type is not exported from the package root). */
export type TypeOrmLogLevel = 'query' | 'schema' | 'error' | 'warn' | 'info' | 'log' | 'migration';

export type StderrSink = (line: string) => void;

const writeToStderr: StderrSink = (line) => {
  process.stderr.write(line);
};

export class StderrTypeOrmLogger implements Logger {
  constructor(
    private readonly levels: readonly TypeOrmLogLevel[] = ['error', 'warn'],
    private readonly sink: StderrSink = writeToStderr,
  ) {}

  logQuery(query: string, parameters?: unknown[], _queryRunner?: QueryRunner): void {
    if (this.levels.includes('query')) this.write('query', `${query}${formatParameters(parameters)}`);
  }

  logQueryError(
    error: string | Error,
    query: string,
    parameters?: unknown[],
    _queryRunner?: QueryRunner,
  ): void {
    if (!this.levels.includes('error')) return;
    const message = error instanceof Error ? error.message : error;
    this.write('query failed', `${query}${formatParameters(parameters)} -- ${message}`);
  }

  logQuerySlow(time: number, query: string, parameters?: unknown[], _queryRunner?: QueryRunner): void {
    if (this.levels.includes('warn'))
      this.write('slow query', `${time} ms: ${query}${formatParameters(parameters)}`);
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

/** Parameters can hold whole item JSON documents; a log line keeps only their beginning. */
const MAX_LOGGED_PARAMETER_CHARS = 2_000;

function formatParameters(parameters?: unknown[]): string {
  if (!parameters || parameters.length === 0) return '';
  let text: string;
  try {
    text = JSON.stringify(parameters);
  } catch {
    return '';
  }
  const shown =
    text.length > MAX_LOGGED_PARAMETER_CHARS ? `${text.slice(0, MAX_LOGGED_PARAMETER_CHARS)}…` : text;
  return ` -- parameters: ${shown}`;
}
