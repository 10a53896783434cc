/** Public surface of the PostgreSQL store (Nest-free; its Nest wiring lives in src/nest/modules). */
export { openPostgresStore, PostgresAppServerStore, type PostgresStoreOptions } from './postgres-store';
export { PostgresCluster } from './cluster/postgres-cluster';
export { INSTANCE_LOST_ERROR } from './cluster/instance-heartbeat';
export { DEFAULT_CONNECT_TIMEOUT_MS, type PostgresStoreTarget } from './data-source';
export {
  describePostgresStore,
  isPostgresStoreUrl,
  parsePostgresStoreUrl,
  redactSecret,
  StoreUrlError,
  type PostgresConnectionSettings,
} from './store-url';
