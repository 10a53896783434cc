/** The typed TypeScript client of docs/spec/protocol.md §13. */
export {
  AppServerClient,
  DEFAULT_CLIENT_CAPABILITIES,
  DEFAULT_MESSAGE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ApprovalHandler,
  type InProcessClientOptions,
  type InProcessServerHandle,
  type SpawnClientOptions,
  type WebSocketClientOptions,
} from './app-server-client';
export { AgentMessageTexts } from './agent-message-texts';
export { AppServerClientError, CLIENT_MESSAGES } from './app-server-client-error';
export { CHILD_EXIT_GRACE_MS } from './child-process-transport';
export type { ClientTransport, TransportListener } from './client-transport';
export type * from './client-types';
