/**
 * Package entry (`require('vv-agent-app-server')`): the embeddable agent runtime, and the App Server
 * pieces a Nest backend or an integration test uses — the module, the host boundary, the in-process
 * server and (see the client folder) the typed client.
 */
export * from './runtime';
export * from './runtime/llm';

export { AppServerModule, type AppServerModuleAsyncOptions } from './nest/app-server.module';
export {
  APP_SERVER_OPTIONS,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_REQUESTS,
  type AppServerModuleOptions,
  type ResolvedAppServerOptions,
} from './nest/app-server-options';
export {
  APP_SERVER_HOST,
  type AppServerHost,
  type HostTurnRequest,
  type ModelListParams,
} from './core/host/app-server-host';
export { DefaultAppServerHost } from './core/host/default-app-server-host';
export { startInProcessAppServer, type InProcessAppServer } from './nest/in-process-app-server';
export { runNativeMessagingAppServer, runStdioAppServer } from './nest/stdio-app-server';
export type * from './core/model/types';
export type { RequestId } from './rpc/request-id';
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
} from './client';

// Transport strategies and the server core, for Nest backends that connect the App Server microservice
// to their own application (e.g. `app.connectMicroservice({ strategy: new InProcessServer() })`).
export { AppServerCore, type ShutdownReason } from './protocols/app-server-v1/app-server-core';
export { InProcessServer } from './transports/in-process/in-process.server';
export { StdioJsonlServer } from './transports/stdio/stdio-jsonl.server';
export { NativeMessagingServer } from './transports/native-messaging/native-messaging.server';
