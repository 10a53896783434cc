/**
 * Runs the WebSocket App Server (websocket.md) until SIGTERM / SIGINT, with the same module and
 * lifecycle as stdio. Resolves with the exit code: 0 after shutdown; 2 for a bad `--ws-token-file`;
 * 1 for a bind failure or another startup failure.
 */
import type { AppServerModuleOptions } from './app-server-options';
import { runAppServer } from './run-app-server';
import { WebSocketJsonRpcServer, type WebSocketServerConfig } from '../transports/websocket/websocket.server';

export function runWebSocketAppServer(
  options: AppServerModuleOptions,
  config: WebSocketServerConfig,
): Promise<number> {
  return runAppServer(options, new WebSocketJsonRpcServer(config));
}
