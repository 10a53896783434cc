/** Jest globalTeardown: stops and deletes the server globalSetup started (if it started one). */
import { stopPostgresCluster } from './postgres-cluster';

export default function teardown(): void {
  const cluster = globalThis.vvPostgresCluster;
  if (cluster === undefined) return;
  globalThis.vvPostgresCluster = undefined;
  delete process.env.VV_TEST_POSTGRES_URL;
  stopPostgresCluster(cluster);
}
