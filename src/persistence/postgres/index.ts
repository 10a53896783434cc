/** Public surface of the PostgreSQL store (Nest-free; its Nest wiring lives in src/nest/modules). */
export { openPostgresStore, type PostgresStoreOptions } from './postgres-store';
export { DEFAULT_CONNECT_TIMEOUT_MS, type PostgresStoreTarget } from './data-source';
export {
  describePostgresStore,
  isPostgresStoreUrl,
  parsePostgresStoreUrl,
  redactSecret,
  StoreUrlError,
  type PostgresConnectionSettings,
} from './store-url';
