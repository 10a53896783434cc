/**
 * Runs the App Server on the process's stdio (protocol.md §1, §12.3 step 5) — JSONL, or the
 * length-prefixed frames of native messaging (native-messaging.md §1) — until it shuts down, and
 * resolves with the process exit code: 0 after a graceful shutdown (EOF, SIGTERM/SIGINT, stdout
 * EPIPE), 1 after a fatal I/O error or a startup failure (its message is written to stderr as one line).
 */
import { NestFactory } from '@nestjs/core';
import type { AppServerModuleOptions } from './app-server-options';
import { AppServerModule } from './app-server.module';
import { StderrLogger } from './stderr-logger';
import { AppServerCore } from '../protocols/app-server-v1/app-server-core';
import { StoreError } from '../persistence/typeorm/store-errors';
import { causeMessage } from '../runtime/cause-message';
import { NativeMessagingServer } from '../transports/native-messaging/native-messaging.server';
import { StdioJsonlServer, type StdioStreams } from '../transports/stdio/stdio-jsonl.server';
import type { StdioProcessServer } from '../transports/stdio/stdio-process.server';

export async function runStdioAppServer(
  options: AppServerModuleOptions,
  io: Partial<StdioStreams> = {},
): Promise<number> {
  return runOnProcessStdio(options, new StdioJsonlServer(processStreams(io)));
}

/** The same server for a browser extension: one native messaging connection on stdio. */
export async function runNativeMessagingAppServer(
  options: AppServerModuleOptions,
  io: Partial<StdioStreams> = {},
): Promise<number> {
  return runOnProcessStdio(options, new NativeMessagingServer(processStreams(io)));
}

function processStreams(io: Partial<StdioStreams>): StdioStreams {
  return { stdin: io.stdin ?? process.stdin, stdout: io.stdout ?? process.stdout };
}

async function runOnProcessStdio(
  options: AppServerModuleOptions,
  server: StdioProcessServer,
): Promise<number> {
  const logger = new StderrLogger();
  let app;
  try {
    app = await NestFactory.createMicroservice(AppServerModule.forRoot(options), {
      strategy: server,
      logger,
      bufferLogs: true,
      // A bootstrap failure is reported as one stderr line below, not as Nest's buffered log dump.
      autoFlushLogs: false,
      abortOnError: false,
    });
    app.useLogger(logger);
    server.attach(app.get(AppServerCore));
    await app.listen();
    // Started: write what was buffered during bootstrap and log directly from now on.
    app.flushLogs();
  } catch (error) {
    process.stderr.write(`${startupFailureMessage(error)}\n`);
    await app?.close().catch(() => undefined);
    return 1;
  }
  const exitCode = await server.whenStopped();
  await app.close();
  return exitCode;
}

/** §12.3 step 4: the store is the only thing opened while the module boots. */
export function startupFailureMessage(error: unknown): string {
  return error instanceof StoreError
    ? `failed to open App Server store: ${error.message}`
    : causeMessage(error);
}
