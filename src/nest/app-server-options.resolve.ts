/** Applies the defaults of docs/spec/protocol.md §10.4 / §12.4 to AppServerModuleOptions. Pure. */
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_REQUESTS,
  type AppServerModuleOptions,
  type AppServerStoreOption,
  type ResolvedAppServerOptions,
} from './app-server-options';
import { DefaultAppServerHost } from '../core/host/default-app-server-host';
import type { AppServerStoreTarget } from '../persistence/open-app-server-store';
import { isPostgresStoreUrl } from '../persistence/postgres/store-url';

function requireInteger(name: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new Error(`AppServerModule option ${name} must be an integer >= ${minimum}`);
  }
  return value;
}

function storeTargetOf(store: AppServerStoreOption | undefined): AppServerStoreTarget {
  // A JavaScript caller (or a forRootAsync factory) can leave the required option out.
  if (typeof store !== 'object' || store === null) {
    throw new Error(
      'AppServerModule option store is required: { path } (a sqlite file or ":memory:"), { url } or { dataSource }',
    );
  }
  if ('dataSource' in store) {
    if (store.dataSource.type !== 'postgres') {
      throw new Error('AppServerModule option store.dataSource must be a TypeORM postgres DataSourceOptions');
    }
    return store.dataSource;
  }
  if ('url' in store) {
    if (!isPostgresStoreUrl(store.url)) {
      throw new Error('AppServerModule option store.url must be a postgres:// or postgresql:// URL');
    }
    return store.url;
  }
  if (typeof store.path !== 'string' || store.path === '') {
    throw new Error(
      'AppServerModule option store.path must be a non-empty string (a sqlite file or ":memory:")',
    );
  }
  return store.path;
}

export function resolveAppServerOptions(options: AppServerModuleOptions): ResolvedAppServerOptions {
  return {
    runner: options.runner ?? null,
    host:
      options.host ??
      new DefaultAppServerHost({
        agent: options.agent,
        runConfig: options.runConfig,
        models: options.models,
      }),
    storeTarget: storeTargetOf(options.store),
    approvalPolicy: options.approvalPolicy ?? 'on-request',
    approvalTimeoutMs: requireInteger(
      'approvalTimeoutMs',
      options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
      1,
    ),
    maxQueuedRequests: requireInteger(
      'maxQueuedRequests',
      options.maxQueuedRequests ?? DEFAULT_MAX_QUEUED_REQUESTS,
      0,
    ),
    maxMessageBytes: requireInteger(
      'maxMessageBytes',
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      1,
    ),
    mcpServers: options.mcpServers ?? {},
    sandbox: options.sandbox ?? null,
  };
}
