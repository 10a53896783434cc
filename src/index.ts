/**
 * Package entry (`require('vv-agent-app-server')`): everything at once — the runtime, the Nest
 * pieces, the committed schemas and the typed client. Applications that need one part import its
 * subpath instead (`vv-agent-app-server/client`, `/runtime`, `/nest`, `/schema`) and load only that
 * part.
 */
export * from './runtime';

export * from './nest';
export * from './protocols/app-server-v1/schema';
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
