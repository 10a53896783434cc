/** `--listen ws://…` (docs/spec/websocket.md §1): the WebSocket server and its token file, loaded together on demand. */
import { readTokenFile, TokenFileError } from '../transports/websocket/token-file';
import { WebSocketStartupError } from '../transports/websocket/websocket.server';

export { runWebSocketAppServer } from '../nest/websocket-app-server';

/** The token file's token; an unreadable or invalid file stops start-up with exit code 2. */
export function loadWebSocketToken(path: string): string {
  try {
    return readTokenFile(path);
  } catch (error) {
    if (error instanceof TokenFileError) throw new WebSocketStartupError(error.message, 2);
    throw error;
  }
}
