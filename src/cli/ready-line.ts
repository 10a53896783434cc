/**
 * The one stderr line a stdio server writes once it serves (issue 16: a human starting it by hand
 * sees it is up and what it runs), at every log level. A PostgreSQL store is shown without its
 * password (docs/spec/postgres.md §1).
 */
import type { ListenOptions } from './cli-invocation';
import { defaultStorePath } from './production-server-options';
import {
  describePostgresStore,
  isPostgresStoreUrl,
  parsePostgresStoreUrl,
} from '../persistence/postgres/store-url';

function storeDescription(store: string): string {
  if (!isPostgresStoreUrl(store)) return store;
  try {
    return describePostgresStore(parsePostgresStoreUrl(store));
  } catch {
    return 'postgres://…';
  }
}

export function readyLine(options: ListenOptions, env: NodeJS.ProcessEnv): string {
  const store = storeDescription(options.store ?? defaultStorePath(env));
  return `vv-agent app-server ready on ${options.listen} (model ${options.backend}/${options.model}, store ${store})`;
}
