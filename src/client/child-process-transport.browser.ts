/**
 * child-process-transport.ts for browser builds (package.json "browser"): same exports, no Node
 * modules. A browser cannot spawn a process; `AppServerClient.connect(url)` is its transport.
 */
import type { ClientTransport, TransportListener } from './client-transport';

export interface SpawnTransportOptions {
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  onStderr?: (line: string) => void;
}

export const CHILD_EXIT_GRACE_MS = 5_000;

export function spawnTransport(
  _options: SpawnTransportOptions,
  _listener: TransportListener,
): ClientTransport {
  throw new Error('AppServerClient.spawn needs Node.js; in a browser use AppServerClient.connect(url)');
}
