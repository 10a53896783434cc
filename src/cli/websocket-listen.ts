/** `--listen ws://…` (docs/spec/websocket.md §1): the WebSocket server and its token file, loaded together on demand. */
import { join } from 'node:path';
import { CODE_DIR } from '../package-layout';
import {
  createInspectorHttp,
  InspectorAssetsMissingError,
  type InspectorHttp,
} from '../transports/websocket/inspector';
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

/** Where `npm run build` writes the page (scripts/bundle-inspector.ts): dist/inspector/. */
export const INSPECTOR_ASSET_DIR = join(CODE_DIR, 'inspector');

/** `--inspector`: the page's files, or null after writing why they are missing (exit 1: an install problem). */
export function inspectorOrExit(outcome: { exitCode: number }): InspectorHttp | null {
  try {
    return createInspectorHttp(INSPECTOR_ASSET_DIR);
  } catch (error) {
    if (!(error instanceof InspectorAssetsMissingError)) throw error;
    process.stderr.write(`${error.message}\n`);
    outcome.exitCode = 1;
    return null;
  }
}
