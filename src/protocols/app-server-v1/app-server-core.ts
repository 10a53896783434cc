/**
 * The server core shared by every transport (docs/spec/protocol.md §10.4, §13): one line handler for stdio and
 * in-process clients, the request dispatcher, the connections, and the shutdown sequence of §1.9.
 * Transports frame their own bytes and hand over complete lines (`receiveLine`); an in-process
 * client `connect`s with its own sink and feeds `receiveLine`.
 */
import type { LoggerService } from '@nestjs/common';
import { Connection } from '../../rpc/connection';
import type { MessageSink } from '../../rpc/message-sink';
import type { ShutdownReason, TransportHost } from '../../rpc/transport-host';
import { ConnectionRegistry } from '../../rpc/connection-registry';
import { Dispatcher } from './dispatcher';
import { JsonRpcErrors } from '../../rpc/rpc-error';
import { causeMessage } from '../../runtime/cause-message';
import { interpretLine } from '../../rpc/inbound-line';
import type { HandlerLookup } from './rpc-context';
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { ServerLifecycle, type ShutdownHook } from '../../core/lifecycle/server-lifecycle';
import { telemetry } from '../../runtime/telemetry/current-telemetry';

export interface AppServerCoreOptions {
  maxMessageBytes: number;
  maxQueuedRequests: number;
  /** True when the server has a runner (`threadLifecycle`). */
  runtimeConfigured: boolean;
  /** docs/spec/sandbox.md §4: the `initialize` capability; absent → not reported. */
  sandbox?: { available: boolean; maxMode: SandboxMode };
}

export type { ShutdownReason } from '../../rpc/transport-host';

export type { ShutdownContext, ShutdownHook } from '../../core/lifecycle/server-lifecycle';

/** §1.9: the whole shutdown sequence is bounded to 5 s. */
export const SHUTDOWN_BUDGET_MS = 5_000;

export class AppServerCore implements TransportHost {
  private readonly dispatcher: Dispatcher;
  private shutdownPromise: Promise<void> | null = null;
  private nextConnectionNumber = 1;

  constructor(
    private readonly options: AppServerCoreOptions,
    readonly connections: ConnectionRegistry,
    private readonly logger: LoggerService,
    /** Shared with the domain, which reads the flag and registers its shutdown work there. */
    readonly lifecycle: ServerLifecycle = new ServerLifecycle(),
  ) {
    this.dispatcher = new Dispatcher(options, logger);
  }

  get runtimeConfigured(): boolean {
    return this.options.runtimeConfigured;
  }

  get sandboxCapability(): AppServerCoreOptions['sandbox'] {
    return this.options.sandbox;
  }

  get maxMessageBytes(): number {
    return this.options.maxMessageBytes;
  }

  /** True from the start of shutdown: no new server requests should be sent (§1.9). */
  get isShuttingDown(): boolean {
    return this.shutdownPromise !== null;
  }

  /** Installs where handlers come from (the protocol's `@RpcMethod` table, set up by the Nest wiring). */
  setHandlerLookup(lookup: HandlerLookup): void {
    this.dispatcher.setHandlerLookup(lookup);
  }

  /** Opens a new connection whose outbound lines go to `sink` (stdio: one; in-process: one per client). */
  connect(sink: MessageSink): Connection {
    const connection = new Connection(`conn_${this.nextConnectionNumber++}`, sink);
    // A server shutting down or shut takes no new connection: it is closed at once, so a client
    // made now fails its first call instead of waiting out its request timeout.
    if (this.isShuttingDown) {
      connection.close();
      return connection;
    }
    this.connections.add(connection);
    const transport = { 'vv_agent.transport': telemetry().transport };
    telemetry().add('vv_agent.connections.active', 1, transport);
    connection.onClose((closed) => {
      telemetry().add('vv_agent.connections.active', -1, transport);
      this.dispatcher.discardWaiting(closed);
    });
    return connection;
  }

  /**
   * Processes one complete line (no terminator) exactly like a framed stdin line — size limit,
   * blank lines, UTF-8, JSON, classification, dispatch. For in-process clients that frame themselves.
   */
  receiveLine(connection: Connection, line: Buffer | string): void {
    if (connection.isClosed || this.isShuttingDown) return;
    this.handleLine(connection, typeof line === 'string' ? Buffer.from(line, 'utf8') : line);
  }

  /**
   * A line longer than the size limit was cut by the transport's framer: answered `-32600`
   * `input_too_large` in line order (§1.2 step 1).
   */
  rejectOversizedLine(connection: Connection): void {
    if (connection.isClosed || this.isShuttingDown) return;
    this.dispatcher.answerProtocolError(
      connection,
      null,
      JsonRpcErrors.inputTooLarge(this.options.maxMessageBytes),
    );
  }

  /** Closes one connection: waiting requests are dropped, pending server requests settle, listeners run. */
  disconnect(connection: Connection): void {
    connection.close();
  }

  /** Registers work to do on shutdown (turn cancellation); hooks run concurrently, bounded by the deadline. */
  onShutdown(hook: ShutdownHook): void {
    this.lifecycle.onShutdown(hook);
  }

  /**
   * The shutdown sequence of §1.9 for every connection, bounded to 5 s; idempotent (later calls get
   * the first call's promise). Resolves when the connections are flushed (unless output is closed)
   * and closed.
   */
  shutdown(reason: ShutdownReason): Promise<void> {
    this.lifecycle.beginShutdown();
    this.shutdownPromise ??= this.runShutdown(reason);
    return this.shutdownPromise;
  }

  private async runShutdown(reason: ShutdownReason): Promise<void> {
    const deadline = Date.now() + SHUTDOWN_BUDGET_MS;
    const connections = this.connections.all();
    if (reason !== 'eof') for (const connection of connections) this.dispatcher.discardWaiting(connection);
    await untilDeadline(Promise.all(connections.map((c) => this.dispatcher.whenIdle(c))), deadline);
    await untilDeadline(
      this.lifecycle.runShutdownHooks({ reason, deadline }, (error) =>
        this.logger.error(`shutdown step failed: ${causeMessage(error)}`),
      ),
      deadline,
    );
    await untilDeadline(Promise.all(connections.map((c) => c.whenFlushed())), deadline);
    for (const connection of this.connections.all()) connection.close();
  }

  private handleLine(connection: Connection, line: Buffer): void {
    const verdict = interpretLine(line, this.options.maxMessageBytes);
    switch (verdict.kind) {
      case 'ignore':
        return;
      case 'error':
        this.dispatcher.answerProtocolError(connection, verdict.id, verdict.error);
        return;
      case 'envelope':
        this.dispatcher.dispatch(connection, verdict.envelope);
        return;
    }
  }
}

/** Waits for `work`, but not past `deadline` (epoch ms). */
async function untilDeadline(work: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([work.then(() => undefined), expired]);
  } finally {
    clearTimeout(timer);
  }
}
