/**
 * Which store a target names (docs/spec/postgres.md §1): a `postgres://` / `postgresql://` URL or a TypeORM
 * postgres DataSourceOptions → PostgreSQL; anything else is a SQLite file path (or `:memory:`),
 * the zero-config default.
 */
import type { PostgresConnectionOptions } from './postgres/data-source';
import { AppServerStore, type AppServerStoreOptions } from './sqlite/app-server-store';
import { isPostgresStoreUrl, openPostgresStore, type PostgresStoreOptions } from './postgres';
import type { TypeOrmAppServerStore } from './typeorm/app-server-store';

export type AppServerStoreTarget = string | PostgresConnectionOptions;

export type OpenStoreOptions = AppServerStoreOptions & PostgresStoreOptions;

export function isPostgresStoreTarget(target: AppServerStoreTarget): boolean {
  return typeof target !== 'string' || isPostgresStoreUrl(target);
}

export function openAppServerStore(
  target: AppServerStoreTarget,
  options: OpenStoreOptions = {},
): Promise<TypeOrmAppServerStore> {
  if (typeof target !== 'string') return openPostgresStore(target, options);
  return isPostgresStoreUrl(target)
    ? openPostgresStore(target, options)
    : AppServerStore.open(target, options);
}
