/**
 * Jest globalSetup: one PostgreSQL server for the whole run, unless VV_TEST_POSTGRES_URL already
 * names one (a superuser URL of its `postgres` database). Its URL reaches the workers through the
 * environment; each suite creates its own databases on it.
 */
import { startPostgresCluster, type RunningCluster } from './postgres-cluster';

declare global {
  var vvPostgresCluster: RunningCluster | undefined;
}

export default async function setup(): Promise<void> {
  if (process.env.VV_TEST_POSTGRES_URL) return;
  const cluster = await startPostgresCluster();
  globalThis.vvPostgresCluster = cluster;
  process.env.VV_TEST_POSTGRES_URL = cluster.adminUrl;
}
