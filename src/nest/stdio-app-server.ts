/**
 * Runs the App Server on the process's stdio (docs/spec/protocol.md §1, §12.3 step 5) — JSONL, or the
 * length-prefixed frames of native messaging (docs/spec/native-messaging.md §1) — until it shuts down, and
 * resolves with the process exit code: 0 after a graceful shutdown (EOF, SIGTERM/SIGINT, stdout
 * EPIPE), 1 after a fatal I/O error or a startup failure (its message is written to stderr as one line).
 */
import type { AppServerModuleOptions } from './app-server-options';
import { runAppServer } from './run-app-server';
import { NativeMessagingServer } from '../transports/native-messaging/native-messaging.server';
import { StdioJsonlServer, type StdioStreams } from '../transports/stdio/stdio-jsonl.server';

export { startupFailureMessage } from './run-app-server';

export function runStdioAppServer(
  options: AppServerModuleOptions,
  io: Partial<StdioStreams> = {},
  onReady?: () => void,
): Promise<number> {
  return runAppServer(options, new StdioJsonlServer(processStreams(io)), onReady);
}

/** The same server for a browser extension: one native messaging connection on stdio. */
export function runNativeMessagingAppServer(
  options: AppServerModuleOptions,
  io: Partial<StdioStreams> = {},
  onReady?: () => void,
): Promise<number> {
  return runAppServer(options, new NativeMessagingServer(processStreams(io)), onReady);
}

function processStreams(io: Partial<StdioStreams>): StdioStreams {
  return { stdin: io.stdin ?? process.stdin, stdout: io.stdout ?? process.stdout };
}
