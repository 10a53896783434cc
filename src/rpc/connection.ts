/**
 * One logical client session (docs/spec/protocol.md §2), independent of the transport that carries it:
 * per-connection state, the ordered outbound queue of §1.8, close listeners and the pending server
 * requests (§1.7).
 */
import type { MessageSink } from './message-sink';
import type { OutboundSource } from './outbound-source';
import { telemetry } from '../runtime/telemetry/current-telemetry';
import type { TelemetryAttributes } from '../runtime/telemetry/telemetry';

/** The §2 state a connection keeps; set by `initialize` / `initialized`. */
export interface ConnectionState {
  initialized: boolean;
  readyForNotifications: boolean;
  clientInfo: { name: string; title?: string; version?: string } | null;
  experimentalApi: boolean;
  optOutNotificationMethods: ReadonlySet<string>;
}

/** How a server request ended: the client's answer, or no answer at all. */
export type ServerRequestOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: { code: number; message: string; data?: unknown } }
  /** the server withdrew the request (`Notifier.withdraw`) */
  | { kind: 'withdrawn' }
  /** the connection closed before an answer arrived */
  | { kind: 'closed' };

export type CloseListener = (connection: Connection) => void;

/** The shortest time between two queue-depth samples of one connection. */
const DEPTH_SAMPLE_INTERVAL_MS = 1;

/** §1.8: capacity of the outbound queue, in messages. */
export const OUTBOUND_QUEUE_CAPACITY = 1024;

/**
 * One run of the ordered outbound stream: a serialized line, or `count` messages still to be taken
 * from a source (consecutive messages of one source share one run).
 */
type OutboundRun =
  | { kind: 'line'; line: string; admitted: (() => void) | null }
  | { kind: 'source'; source: OutboundSource; count: number };

export class Connection {
  readonly state: ConnectionState = {
    initialized: false,
    readyForNotifications: false,
    clientInfo: null,
    experimentalApi: false,
    optOutNotificationMethods: new Set<string>(),
  };

  /** Admitted runs, holding at most `capacity` messages in total. */
  private readonly queue: OutboundRun[] = [];
  private queuedMessages = 0;
  /** Runs waiting for queue space, in the order they were produced. */
  private readonly waiting: OutboundRun[] = [];
  private readonly idleWaiters: Array<() => void> = [];
  private waitingForDrain = false;
  private writing = false;
  /** Set when the sink failed (e.g. EPIPE): nothing is written any more. */
  private outputBroken = false;
  private closed = false;
  private readonly closeListeners = new Set<CloseListener>();
  private readonly pendingServerRequests = new Map<string, (outcome: ServerRequestOutcome) => void>();
  /** Made once: the depth is sampled for every queued message (docs/spec/observability.md §3). */
  private readonly depthAttributes: TelemetryAttributes = { 'vv_agent.transport': telemetry().transport };
  private nextDepthSampleAt = 0;

  constructor(
    readonly id: string,
    private readonly sink: MessageSink,
    private readonly capacity: number = OUTBOUND_QUEUE_CAPACITY,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Serializes `message` as one compact JSON line and enqueues it. Resolves once the line is in the
   * queue; when the queue is full it waits for space (never drops, never lets later messages
   * overtake). Throws synchronously when `message` cannot be serialized. After close, or once the
   * output is broken, messages are discarded.
   */
  send(message: unknown): Promise<void> {
    const line = `${JSON.stringify(message)}\n`;
    if (this.closed || this.outputBroken) return Promise.resolve();
    this.sampleDepth();
    if (this.waiting.length === 0 && this.queuedMessages < this.capacity) {
      this.admit({ kind: 'line', line, admitted: null });
      this.pump();
      return Promise.resolve();
    }
    return new Promise<void>((admitted) => this.waiting.push({ kind: 'line', line, admitted }));
  }

  /**
   * `count` more messages of `source` are due, after everything produced before them. Never waits:
   * the source holds the messages and the connection takes them when it writes, so the producer
   * (a running turn) is never slowed down by this connection (architecture: one slow reader never
   * stalls the turn or the other readers).
   */
  enqueueFrom(source: OutboundSource, count = 1): void {
    if (count <= 0 || this.closed || this.outputBroken) return;
    this.sampleDepth();
    const lastWaiting = this.waiting.at(-1);
    if (lastWaiting?.kind === 'source' && lastWaiting.source === source) {
      lastWaiting.count += count;
    } else if (lastWaiting !== undefined) {
      this.waiting.push({ kind: 'source', source, count });
    } else {
      const room = Math.min(count, this.capacity - this.queuedMessages);
      if (room > 0) this.admit({ kind: 'source', source, count: room });
      if (count > room) this.waiting.push({ kind: 'source', source, count: count - room });
    }
    this.pump();
  }

  /**
   * docs/spec/observability.md §3: the depth, sampled when a message is queued — at most once a
   * millisecond per connection, so that a stream of 100 000 deltas a second costs a thousand
   * samples, not a histogram update per delta (the bench's tracing figure).
   */
  private sampleDepth(): void {
    const current = telemetry();
    if (!current.enabled) return;
    const now = performance.now();
    if (now < this.nextDepthSampleAt) return;
    this.nextDepthSampleAt = now + DEPTH_SAMPLE_INTERVAL_MS;
    current.record('vv_agent.outbound.queue.depth', this.queuedMessages, this.depthAttributes);
  }

  /** Number of messages queued (admitted) and not yet handed to the sink. */
  get queuedLines(): number {
    return this.queuedMessages;
  }

  /** Number of runs the connection holds (queued and waiting); a stalled source counts once per run. */
  get heldRuns(): number {
    return this.queue.length + this.waiting.length;
  }

  /** Resolves when every enqueued (and waiting) line has been handed to the sink, or the output broke. */
  whenFlushed(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** The sink cannot be written any more (EPIPE/EBADF): queued lines are dropped, producers released. */
  markOutputBroken(): void {
    this.outputBroken = true;
    this.queue.length = 0;
    this.queuedMessages = 0;
    this.releaseAllWaiters();
  }

  onClose(listener: CloseListener): () => void {
    if (this.closed) {
      listener(this);
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /**
   * Closes the connection (idempotent): pending server requests settle as `closed`, then the close
   * listeners run. Lines already queued are still written unless the output broke.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const pending = [...this.pendingServerRequests.values()];
    this.pendingServerRequests.clear();
    for (const settle of pending) settle({ kind: 'closed' });
    const listeners = [...this.closeListeners];
    this.closeListeners.clear();
    for (const listener of listeners) listener(this);
  }

  /** Registers a server request awaiting the client's answer; the promise settles exactly once. */
  expectAnswer(id: string): Promise<ServerRequestOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    if (this.pendingServerRequests.has(id)) throw new Error(`duplicate server request id: ${id}`);
    return new Promise<ServerRequestOutcome>((resolve) => this.pendingServerRequests.set(id, resolve));
  }

  hasPendingServerRequest(id: string): boolean {
    return this.pendingServerRequests.has(id);
  }

  /** Settles the pending server request `id`; returns false when none matched (the answer is ignored). */
  settleServerRequest(id: string, outcome: ServerRequestOutcome): boolean {
    const settle = this.pendingServerRequests.get(id);
    if (settle === undefined) return false;
    this.pendingServerRequests.delete(id);
    settle(outcome);
    return true;
  }

  /** Writes queued messages one at a time, never while the sink waits for drain. */
  private pump(): void {
    if (this.writing) return;
    this.writing = true;
    try {
      while (!this.waitingForDrain && !this.outputBroken && this.queue.length > 0) {
        const line = this.nextLine();
        this.admitWaiting();
        if (line !== null && !this.writeToSink(line)) {
          this.waitingForDrain = true;
          this.sink.onDrain(() => {
            this.waitingForDrain = false;
            this.pump();
          });
        }
      }
    } finally {
      this.writing = false;
    }
    if (this.isIdle()) this.releaseIdleWaiters();
  }

  /** Takes the head message out of the queue; null when its source had nothing left. */
  private nextLine(): string | null {
    const head = this.queue[0];
    if (head.kind === 'line') {
      this.queue.shift();
      this.queuedMessages -= 1;
      return head.line;
    }
    const message = head.source.take();
    if (message === undefined) {
      // The source closed: what was still counted for it is gone with it.
      this.queue.shift();
      this.queuedMessages -= head.count;
      this.dropWaitingRunsOf(head.source);
      return null;
    }
    head.count -= 1;
    this.queuedMessages -= 1;
    if (head.count === 0) this.queue.shift();
    return this.serialize(message);
  }

  /** A source message that cannot be serialized is a bug upstream: it is skipped, the rest still flows. */
  private serialize(message: object): string | null {
    try {
      return `${JSON.stringify(message)}\n`;
    } catch {
      return null;
    }
  }

  private admit(run: OutboundRun): void {
    const count = run.kind === 'line' ? 1 : run.count;
    const tail = this.queue.at(-1);
    if (run.kind === 'source' && tail?.kind === 'source' && tail.source === run.source) tail.count += count;
    else this.queue.push(run);
    this.queuedMessages += count;
  }

  /** Moves waiting runs (whole or in part) into the space that freed up, oldest first. */
  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.queuedMessages < this.capacity) {
      const head = this.waiting[0];
      if (head.kind === 'line') {
        this.waiting.shift();
        this.admit({ ...head, admitted: null });
        head.admitted?.();
        continue;
      }
      const room = Math.min(head.count, this.capacity - this.queuedMessages);
      this.admit({ kind: 'source', source: head.source, count: room });
      head.count -= room;
      if (head.count === 0) this.waiting.shift();
    }
  }

  private dropWaitingRunsOf(source: OutboundSource): void {
    for (let index = this.queue.length - 1; index >= 0; index -= 1) {
      const run = this.queue[index];
      if (run.kind === 'source' && run.source === source) {
        this.queuedMessages -= run.count;
        this.queue.splice(index, 1);
      }
    }
    for (let index = this.waiting.length - 1; index >= 0; index -= 1) {
      const run = this.waiting[index];
      if (run.kind === 'source' && run.source === source) this.waiting.splice(index, 1);
    }
  }

  /** A sink that throws is treated like a broken pipe: the connection stops writing. */
  private writeToSink(line: string): boolean {
    try {
      return this.sink.write(line);
    } catch {
      this.markOutputBroken();
      return true;
    }
  }

  private isIdle(): boolean {
    return (
      this.outputBroken || (this.queue.length === 0 && this.waiting.length === 0 && !this.waitingForDrain)
    );
  }

  private releaseAllWaiters(): void {
    const waiters = this.waiting.splice(0);
    for (const waiter of waiters) if (waiter.kind === 'line') waiter.admitted?.();
    this.releaseIdleWaiters();
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters.splice(0);
    for (const resolve of waiters) resolve();
  }
}
