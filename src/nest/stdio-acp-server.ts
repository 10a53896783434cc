/**
 * Runs `vv-agent acp` (docs/spec/acp.md §1): the same module, core, store, host, approvals and MCP as the
 * stdio App Server, with the ACP agent instead of the v1 transport on stdin/stdout. Resolves with
 * the exit code: 0 after a graceful shutdown (stdin EOF, SIGTERM/SIGINT, stdout gone), 1 after a
 * startup failure (its message is written to stderr as one line).
 */
import { Readable } from 'node:stream';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { AppServerModuleOptions } from './app-server-options';
import { AppServerModule } from './app-server.module';
import { StderrLogger } from './stderr-logger';
import { startupFailureMessage } from './stdio-app-server';
import { ServerLifecycle } from '../core/lifecycle/server-lifecycle';
import { ThreadsService } from '../core/threads/threads.service';
import { TurnsService } from '../core/turns/turns.service';
import { AcpConnections } from '../protocols/acp/delivery/acp-connections';
import { causeMessage } from '../runtime/cause-message';

/** docs/spec/protocol.md §1.9: the whole shutdown is bounded to 5 s. */
const SHUTDOWN_BUDGET_MS = 5_000;

/** The protocol half of stdout (the CLI's guarded writer). */
export interface AcpOutput {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

export interface AcpStdio {
  stdin: NodeJS.ReadableStream;
  stdout: AcpOutput;
}

function outputStream(output: AcpOutput): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve) => {
        if (output.write(decoder.decode(chunk, { stream: true }))) resolve();
        else output.once('drain', resolve);
      }),
  });
}

export async function runStdioAcpServer(
  options: AppServerModuleOptions,
  io: AcpStdio,
  version: string,
): Promise<number> {
  const logger = new StderrLogger();
  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(AppServerModule.forRoot(options), {
      logger,
      bufferLogs: true,
      autoFlushLogs: false,
      abortOnError: false,
    });
    app.useLogger(logger);
    app.flushLogs();
  } catch (error) {
    process.stderr.write(`${startupFailureMessage(error)}\n`);
    await app?.close().catch(() => undefined);
    return 1;
  }
  // The SDK is loaded only by this command: `app-server` never pays for it.
  const { AcpAgent } = await import('../protocols/acp/acp-agent');
  const { acpStream } = await import('../protocols/acp/acp-stream');
  const agent = new AcpAgent({
    threads: app.get(ThreadsService, { strict: false }),
    turns: app.get(TurnsService, { strict: false }),
    connections: app.get(AcpConnections, { strict: false }),
    version,
  });
  const input = Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>;
  const served = agent.serve(acpStream(outputStream(io.stdout), input, options.maxMessageBytes));

  const reason = await new Promise<string>((resolve) => {
    void served.closed.then(() => resolve('eof'));
    io.stdout.on('error', () => resolve('stdout'));
    process.once('SIGTERM', () => resolve('signal'));
    process.once('SIGINT', () => resolve('signal'));
  });
  const lifecycle = app.get(ServerLifecycle, { strict: false });
  lifecycle.beginShutdown();
  const deadline = Date.now() + SHUTDOWN_BUDGET_MS;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    lifecycle.runShutdownHooks({ reason, deadline }, (error) =>
      logger.error(`shutdown step failed: ${causeMessage(error)}`, 'AcpServer'),
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_BUDGET_MS))),
  ]);
  clearTimeout(timer);
  served.close();
  await app.close();
  return 0;
}
