/**
 * An App Server without a transport process (docs/spec/protocol.md §13 "in-process"): the same module, core
 * and lifecycle as stdio; each in-process client gets its own connection from `core.connect(sink)`.
 */
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice, LoggerService } from '@nestjs/common';
import type { AppServerModuleOptions } from './app-server-options';
import { AppServerModule } from './app-server.module';
import { StderrLogger } from './stderr-logger';
import { AppServerCore } from '../protocols/app-server-v1/app-server-core';
import { InProcessServer } from '../transports/in-process/in-process.server';

export interface InProcessAppServer {
  readonly core: AppServerCore;
  readonly app: INestMicroservice;
  /** Runs the shutdown sequence (§1.9, waiting requests discarded), then closes the Nest app. */
  close(): Promise<void>;
}

export async function startInProcessAppServer(
  options: AppServerModuleOptions,
  logger: LoggerService = new StderrLogger(),
): Promise<InProcessAppServer> {
  const server = new InProcessServer();
  const app = await NestFactory.createMicroservice(AppServerModule.forRoot(options), {
    strategy: server,
    logger,
    abortOnError: false,
  });
  const core = app.get(AppServerCore);
  server.attach(core);
  await app.listen();
  let closing: Promise<void> | null = null;
  return {
    core,
    app,
    close: () => {
      closing ??= core.shutdown('signal').then(() => app.close());
      return closing;
    },
  };
}
