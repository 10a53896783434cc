/**
 * The shared repositories write SQL once, with `?` placeholders and double-quoted identifiers,
 * which SQLite runs as is. PostgreSQL numbers its placeholders (`$1`, `$2`, …); the statements
 * contain no `?` inside literals, so numbering them in order is exact.
 */
import type { EntityManager } from 'typeorm';

export type SqlDialect = 'sqlite' | 'postgres';

export function toPositionalPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

export function dialectOf(manager: EntityManager): SqlDialect {
  return manager.connection.driver.options.type === 'postgres' ? 'postgres' : 'sqlite';
}

/** `manager.query` for a statement written with `?` placeholders, on either driver. */
export function runSql<T = unknown>(
  manager: EntityManager,
  sql: string,
  parameters: readonly unknown[] = [],
): Promise<T> {
  const text = dialectOf(manager) === 'postgres' ? toPositionalPlaceholders(sql) : sql;
  return manager.query(text, [...parameters]) as Promise<T>;
}
