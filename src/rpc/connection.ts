/**
 * One logical client session (protocol.md §2), independent of the transport that carries it:
 * per-connection state, the ordered outbound queue of §1.8, close listeners and the pending server
 * requests (§1.7).
 */
import type { MessageSink } from './message-sink';

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

/** §1.8: capacity of the outbound queue, in messages. */
export const OUTBOUND_QUEUE_CAPACITY = 1024;

interface SpaceWaiter {
  line: string;
  admitted: () => void;
}

export class Connection {
  readonly state: ConnectionState = {
    initialized: false,
    readyForNotifications: false,
    clientInfo: null,
    experimentalApi: false,
    optOutNotificationMethods: new Set<string>(),
  };

  private readonly queue: string[] = [];
  /** Producers waiting for queue space, in the order they called `send`. */
  private readonly spaceWaiters: SpaceWaiter[] = [];
  private readonly idleWaiters: Array<() => void> = [];
  private waitingForDrain = false;
  private writing = false;
  /** Set when the sink failed (e.g. EPIPE): nothing is written any more. */
  private outputBroken = false;
  private closed = false;
  private readonly closeListeners = new Set<CloseListener>();
  private readonly pendingServerRequests = new Map<string, (outcome: ServerRequestOutcome) => void>();

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
   * queue; when the queue is full it waits for space (never drops, never lets later sends overtake).
   * Throws synchronously when `message` cannot be serialized. After close, or once the output is
   * broken, messages are discarded.
   */
  send(message: unknown): Promise<void> {
    const line = `${JSON.stringify(message)}\n`;
    if (this.closed || this.outputBroken) return Promise.resolve();
    if (this.spaceWaiters.length === 0 && this.queue.length < this.capacity) {
      this.queue.push(line);
      this.pump();
      return Promise.resolve();
    }
    return new Promise<void>((admitted) => this.spaceWaiters.push({ line, admitted }));
  }

  /** Number of lines queued and not yet handed to the sink. */
  get queuedLines(): number {
    return this.queue.length;
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

  /** Writes queued lines one at a time, never while the sink waits for drain. */
  private pump(): void {
    if (this.writing) return;
    this.writing = true;
    try {
      while (!this.waitingForDrain && !this.outputBroken && this.queue.length > 0) {
        const line = this.queue.shift() as string;
        this.admitWaiter();
        if (!this.writeToSink(line)) {
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

  /** A sink that throws is treated like a broken pipe: the connection stops writing. */
  private writeToSink(line: string): boolean {
    try {
      return this.sink.write(line);
    } catch {
      this.markOutputBroken();
      return true;
    }
  }

  /** Moves the oldest waiting producer into the queue slot that just freed up. */
  private admitWaiter(): void {
    const waiter = this.spaceWaiters.shift();
    if (waiter === undefined) return;
    this.queue.push(waiter.line);
    waiter.admitted();
  }

  private isIdle(): boolean {
    return (
      this.outputBroken ||
      (this.queue.length === 0 && this.spaceWaiters.length === 0 && !this.waitingForDrain)
    );
  }

  private releaseAllWaiters(): void {
    const waiters = this.spaceWaiters.splice(0);
    for (const waiter of waiters) waiter.admitted();
    this.releaseIdleWaiters();
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters.splice(0);
    for (const resolve of waiters) resolve();
  }
}
