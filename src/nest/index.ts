/**
 * `vv-agent-app-server/nest`: what a Nest application imports to host the App Server — the module,
 * its options, the host boundary and the in-process / stdio starters.
 */
export { AppServerModule, type AppServerModuleAsyncOptions } from './app-server.module';
export {
  APP_SERVER_OPTIONS,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_REQUESTS,
  type AppServerModuleOptions,
  type ResolvedAppServerOptions,
} from './app-server-options';
export {
  APP_SERVER_HOST,
  type AppServerHost,
  type HostTurnRequest,
  type ModelListParams,
} from '../core/host/app-server-host';
export { DefaultAppServerHost } from '../core/host/default-app-server-host';
export { startInProcessAppServer, type InProcessAppServer } from './in-process-app-server';
export { runStdioAppServer } from './stdio-app-server';
export { AppServerCore, type ShutdownReason } from '../protocols/app-server-v1/app-server-core';
export { InProcessServer } from '../transports/in-process/in-process.server';
export { StdioJsonlServer } from '../transports/stdio/stdio-jsonl.server';
export type * from '../core/model/types';
