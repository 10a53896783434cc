/**
 * Runs the stdio App Server (protocol.md §1, §12.3 step 5) until it shuts down, and resolves with
 * the process exit code: 0 after a graceful shutdown (EOF, SIGTERM/SIGINT, stdout EPIPE), 1 after a
 * fatal I/O error or a startup failure (its message is written to stderr as one line).
 */
import type { AppServerModuleOptions } from './app-server-options';
import { runAppServer } from './run-app-server';
import { StdioJsonlServer, type StdioStreams } from '../transports/stdio/stdio-jsonl.server';

export { startupFailureMessage } from './run-app-server';

export function runStdioAppServer(
  options: AppServerModuleOptions,
  io: Partial<StdioStreams> = {},
): Promise<number> {
  const server = new StdioJsonlServer({
    stdin: io.stdin ?? process.stdin,
    stdout: io.stdout ?? process.stdout,
  });
  return runAppServer(options, server);
}
