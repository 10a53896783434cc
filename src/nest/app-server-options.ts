/** Options of `AppServerModule.forRoot` (docs/spec/protocol.md §10.4). */
import type { Type } from '@nestjs/common';
import type { Agent } from '../runtime/agent';
import type { Runner } from '../runtime/runner';
import type { RunConfig } from '../runtime/run-config';
import type { ApprovalPolicy } from '../runtime/approvals/types';
import type { AppServerHost } from '../core/host/app-server-host';
import type { AppModelInfo } from '../core/model/types';
import type { McpServerConfig } from '../runtime/tools/mcp/server-config';
import type { PostgresConnectionOptions } from '../persistence/postgres/data-source';
import type { AppServerStoreTarget } from '../persistence/open-app-server-store';
import type { ServerSandbox } from '../core/sandbox/server-sandbox';

export interface AppServerModuleOptions {
  /** Without a runner the server has no runtime adapter: threadLifecycle false, runtime methods -32603. */
  runner?: Runner;
  /**
   * Product host; when absent a DefaultAppServerHost is built from agent, runConfig and models. A class
   * is instantiated by Nest with its constructor dependencies injected — the `forRoot` form of binding
   * `{ provide: APP_SERVER_HOST, useClass: ProductHost }` (docs/spec/protocol.md §10.4).
   */
  host?: AppServerHostBinding;
  agent?: Agent;
  runConfig?: RunConfig;
  models?: AppModelInfo[];
  /**
   * `{ path }`: a sqlite file path, or ":memory:" (the default store). PostgreSQL (docs/spec/postgres.md §1):
   * `{ url: "postgres://user:password@host:port/database" }` or `{ dataSource }`, a TypeORM postgres
   * DataSourceOptions (its entities, migrations and logger are the App Server's own).
   */
  store: AppServerStoreOption;
  /** Default `on-request`. */
  approvalPolicy?: ApprovalPolicy;
  /** Default 30 000. */
  approvalTimeoutMs?: number;
  /** Default 128. */
  maxQueuedRequests?: number;
  /** Default 16 777 216. */
  maxMessageBytes?: number;
  /** docs/spec/mcp.md §1: process-level MCP servers (`--mcp-config`), already `${VAR}`-expanded. Default none. */
  mcpServers?: Record<string, McpServerConfig>;
  /**
   * docs/spec/sandbox.md §1: the most permissive mode and the OS boundary of `bash`. Default: none
   * (no boundary, no restriction — what an embedder had before v1.2).
   */
  sandbox?: ServerSandbox;
}

export type AppServerStoreOption =
  { path: string } | { url: string } | { dataSource: PostgresConnectionOptions };

/** A host instance, or a host class for Nest to build with dependency injection. */
export type AppServerHostBinding = AppServerHost | Type<AppServerHost>;

/** Options with every default applied; what the modules inject. */
export interface ResolvedAppServerOptions {
  runner: Runner | null;
  /** The host, or its class; the module binds the instance under APP_SERVER_HOST. */
  host: AppServerHostBinding;
  /** A sqlite path, a postgres URL, or postgres DataSourceOptions. */
  storeTarget: AppServerStoreTarget;
  approvalPolicy: ApprovalPolicy;
  approvalTimeoutMs: number;
  maxQueuedRequests: number;
  maxMessageBytes: number;
  mcpServers: Record<string, McpServerConfig>;
  /** null: no sandbox configured (an embedder's pre-v1.2 behaviour). */
  sandbox: ServerSandbox | null;
}

export const APP_SERVER_OPTIONS = Symbol('APP_SERVER_OPTIONS');

export const DEFAULT_MAX_MESSAGE_BYTES = 16_777_216;
export const DEFAULT_MAX_QUEUED_REQUESTS = 128;
export const DEFAULT_APPROVAL_TIMEOUT_MS = 30_000;
