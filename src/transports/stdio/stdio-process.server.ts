/**
 * The process's stdio as a transport (docs/spec/protocol.md §1.1, §1.9) and a Nest custom transport strategy:
 * stdin bytes go through a framing's framer to the core's line handler, outbound messages go through
 * the framing's sink to stdout honouring `drain`. One process = one connection. Handlers come from
 * the protocol layer, not from this strategy. JSONL (stdio-jsonl.server.ts) and native messaging
 * (../native-messaging) are framings of this one server.
 *
 * Shutdown (§1.9): stdin EOF (lines already read are processed first), SIGTERM / SIGINT (waiting
 * requests discarded) and stdout EPIPE / EBADF (nothing more is written) run the core's shutdown
 * sequence and stop with exit code 0; any other I/O error is reported on stderr and stops with 1.
 */
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { ShutdownReason, TransportHost } from '../../rpc/transport-host';
import type { Connection } from '../../rpc/connection';
import type { FramerEvent, InboundFramer, ProtocolStdout, StdioFraming } from './stdio-framing';
import { isClosedOutputError } from './closed-output';

export type { ProtocolStdout } from './stdio-framing';

export interface StdioStreams {
  stdin: NodeJS.ReadableStream;
  stdout: ProtocolStdout;
}

/** Where SIGTERM / SIGINT come from (the process; a fake in tests). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/** Events observable through `on()`: fatal I/O errors. */
export type StdioServerEvents = { error: (error: Error) => void };

const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

export class StdioProcessServer extends Server<StdioServerEvents> implements CustomTransportStrategy {
  private core: TransportHost | null = null;
  private connection: Connection | null = null;
  /** Cuts stdin into messages under the framing's rules; the core never sees bytes. */
  private framer: InboundFramer | null = null;
  private stopping = false;
  private readonly errorListeners: Array<StdioServerEvents['error']> = [];
  private resolveStopped!: (exitCode: number) => void;
  private readonly stopped = new Promise<number>((resolve) => (this.resolveStopped = resolve));

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.core === null || this.connection === null) return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.deliver(this.framer?.push(bytes) ?? []);
  };
  private readonly onEnd = (): void => void this.stop('eof', 0);
  private readonly onStdinError = (error: Error): void => this.fail('stdin', error);
  private readonly onStdoutError = (error: Error): void => {
    this.connection?.markOutputBroken();
    if (isClosedOutputError(error)) void this.stop('output-closed', 0);
    else this.fail('stdout', error);
  };
  private readonly onSignal = (): void => void this.stop('signal', 0);

  constructor(
    override readonly transportId: symbol,
    private readonly framing: StdioFraming,
    private readonly io: StdioStreams,
    private readonly signals: SignalSource = process,
    private readonly stderr: { write(text: string): unknown } = process.stderr,
  ) {
    super();
  }

  /** The core this transport feeds; must be attached before `listen`. */
  attach(core: TransportHost): void {
    this.core = core;
  }

  /** Resolves with the process exit code once the server has shut down. */
  whenStopped(): Promise<number> {
    return this.stopped;
  }

  listen(callback: (error?: unknown) => void): void {
    const core = this.core;
    if (core === null) {
      callback(new Error(`${this.framing.name} server: attach(core) must be called before listen()`));
      return;
    }
    const { stdin, stdout } = this.io;
    this.connection = core.connect(this.framing.createSink(stdout));
    this.framer = this.framing.createFramer(core.maxMessageBytes);
    stdout.on('error', this.onStdoutError);
    stdin.on('data', this.onData);
    stdin.on('end', this.onEnd);
    stdin.on('error', this.onStdinError);
    for (const signal of SHUTDOWN_SIGNALS) this.signals.on(signal, this.onSignal);
    callback();
  }

  /** Called by Nest on `app.close()`: stops reading and detaches from the process. */
  close(): void {
    this.detach();
  }

  on<
    K extends keyof StdioServerEvents = keyof StdioServerEvents,
    C extends StdioServerEvents[K] = StdioServerEvents[K],
  >(event: K, callback: C): void {
    if (event === 'error') this.errorListeners.push(callback);
  }

  unwrap<T>(): T {
    return this.io as T;
  }

  private async stop(reason: ShutdownReason, exitCode: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.stopReading();
    const core = this.core;
    if (core !== null && this.connection !== null) {
      if (reason === 'eof') this.deliver(this.framer?.end() ?? []);
      await core.shutdown(reason);
    }
    this.detach();
    this.resolveStopped(exitCode);
  }

  private deliver(events: readonly FramerEvent[]): void {
    const { core, connection } = this;
    if (core === null || connection === null) return;
    for (const event of events) {
      if (event.kind === 'line') core.receiveLine(connection, event.line);
      else core.rejectOversizedLine(connection);
    }
  }

  private fail(stream: 'stdin' | 'stdout', error: Error): void {
    if (this.stopping) return;
    this.stderr.write(`fatal ${stream} error: ${error.message}\n`);
    for (const listener of this.errorListeners) listener(error);
    void this.stop(stream === 'stdout' ? 'output-closed' : 'signal', 1);
  }

  private stopReading(): void {
    const { stdin } = this.io;
    stdin.off('data', this.onData);
    stdin.off('end', this.onEnd);
    stdin.pause();
  }

  /** The error listeners stay installed: a late EPIPE must not become an unhandled 'error' event. */
  private detach(): void {
    this.stopReading();
    for (const signal of SHUTDOWN_SIGNALS) this.signals.off(signal, this.onSignal);
  }
}
