/**
 * Package entry (`require('vv-agent-app-server')`): the embeddable agent runtime, and the App Server
 * pieces a Nest backend or an integration test uses — the module, the host boundary, the in-process
 * server and (see the client folder) the typed client.
 */
export * from './runtime';
export * from './runtime/llm';

export { AppServerModule, type AppServerModuleAsyncOptions } from './app-server/app-server.module';
export {
  APP_SERVER_OPTIONS,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_REQUESTS,
  type AppServerModuleOptions,
  type ResolvedAppServerOptions,
} from './app-server/app-server-options';
export {
  APP_SERVER_HOST,
  type AppServerHost,
  type HostTurnRequest,
  type ModelListParams,
} from './app-server/host/app-server-host';
export { DefaultAppServerHost } from './app-server/host/default-app-server-host';
export { startInProcessAppServer, type InProcessAppServer } from './app-server/in-process-app-server';
export { runStdioAppServer } from './app-server/stdio-app-server';
export type * from './app-server/protocol/wire-types';
export {
  AppServerClient,
  AppServerClientError,
  type ApprovalHandler,
  type ClientMethod,
  type InProcessClientOptions,
  type ParamsOf,
  type ResultOf,
  type ServerMessage,
  type SpawnClientOptions,
} from './app-server/client';

// Transport strategies and the server core, for Nest backends that connect the App Server microservice
// to their own application (e.g. `app.connectMicroservice({ strategy: new InProcessServer() })`).
export { AppServerCore, type ShutdownReason } from './app-server/protocol/app-server-core';
export { InProcessServer } from './app-server/transport/in-process.server';
export { StdioJsonlServer } from './app-server/transport/stdio-jsonl.server';
