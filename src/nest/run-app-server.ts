/**
 * The one lifecycle every transport of the production server shares (docs/spec/protocol.md §12.3): boot the
 * App Server module as a Nest microservice with the transport as its strategy, attach the core,
 * listen, then wait until the transport reports that the server stopped. Resolves with the exit
 * code: the transport's after a shutdown; 1 (or the transport's startup code) after a startup
 * failure, whose message is written to stderr as one line.
 */
import { NestFactory } from '@nestjs/core';
import type { CustomTransportStrategy } from '@nestjs/microservices';
import type { AppServerModuleOptions } from './app-server-options';
import { AppServerModule } from './app-server.module';
import { StderrLogger } from './stderr-logger';
import { AppServerCore } from '../protocols/app-server-v1/app-server-core';
import type { TransportHost } from '../rpc/transport-host';
import { StoreError } from '../persistence/typeorm/store-errors';
import { causeMessage } from '../runtime/cause-message';

/** What the lifecycle needs of a transport strategy. */
export type AppServerTransport = CustomTransportStrategy & {
  attach(core: TransportHost): void;
  /** Resolves with the process exit code once the transport has shut the server down. */
  whenStopped(): Promise<number>;
};

/** `onReady`: called once the server serves (after `listen`), e.g. to print a readiness line. */
export async function runAppServer(
  options: AppServerModuleOptions,
  server: AppServerTransport,
  onReady?: () => void,
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
    onReady?.();
  } catch (error) {
    process.stderr.write(`${startupFailureMessage(error)}\n`);
    await app?.close().catch(() => undefined);
    return startupExitCode(error);
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

/** A transport may say which exit code its startup failure stands for (docs/spec/websocket.md §1: token file → 2). */
function startupExitCode(error: unknown): number {
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === 'number' ? code : 1;
}
