/**
 * Sends a thread's notifications to its recipients (protocol.md §7.1) through the Notifier, and
 * implements the `thread/resume` hold (§3.4 step 3): while a connection is held for a thread, its
 * copies of that thread's notifications are buffered; `release` enqueues them, in production
 * order, right after the resume response and before any later notification.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ConnectionRegistry } from '../../rpc/connection-registry';
import { Notifier } from '../../protocols/app-server-v1/notifier';
import type { ServerNotificationMethod } from '../../protocols/app-server-v1/registry';
import { ThreadSubscriptions } from './thread-subscriptions';

/** A buffered copy, or a send that must follow the buffered copies (the owner's server request). */
type HeldDelivery =
  | { kind: 'notification'; method: ServerNotificationMethod; params: object }
  | { kind: 'action'; run: () => void };

@Injectable()
export class ThreadNotifications {
  /** threadId → connectionId → notifications waiting for the resume response. */
  private readonly holds = new Map<string, Map<string, HeldDelivery[]>>();

  constructor(
    @Inject(Notifier) private readonly notifier: Notifier,
    @Inject(ThreadSubscriptions) private readonly subscriptions: ThreadSubscriptions,
    @Inject(ConnectionRegistry) connections: ConnectionRegistry,
  ) {
    connections.onConnectionClosed((connection) => {
      for (const [threadId, held] of this.holds) {
        held.delete(connection.id);
        if (held.size === 0) this.holds.delete(threadId);
      }
    });
  }

  /** Every current subscriber of the thread ("broadcast"). Resolves when every copy is enqueued. */
  broadcast(threadId: string, method: ServerNotificationMethod, params: object): Promise<void> {
    return this.send(threadId, this.subscriptions.subscribers(threadId), method, params);
  }

  /** The requester and every subscriber, each at most once (thread/archive). */
  toRequesterAndSubscribers(
    threadId: string,
    requesterId: string,
    method: ServerNotificationMethod,
    params: object,
  ): Promise<void> {
    return this.send(threadId, [requesterId, ...this.subscriptions.subscribers(threadId)], method, params);
  }

  /** Only the requester (thread/started, thread/closed). */
  toRequester(requesterId: string, method: ServerNotificationMethod, params: object): Promise<void> {
    return this.notifier.notify([requesterId], method, params);
  }

  /** Starts buffering `connectionId`'s copies of the thread's notifications (idempotent). */
  hold(threadId: string, connectionId: string): void {
    let held = this.holds.get(threadId);
    if (held === undefined) {
      held = new Map();
      this.holds.set(threadId, held);
    }
    if (!held.has(connectionId)) held.set(connectionId, []);
  }

  /**
   * Runs `send` (something for `connectionId` about this thread that is not a notification, e.g.
   * the owner's `approval/request`) now, or — while the connection is held — right after the copies
   * buffered before it, so it keeps its place in the thread's order (§7.5).
   */
  inThreadOrder(threadId: string, connectionId: string, send: () => void): void {
    const buffer = this.holds.get(threadId)?.get(connectionId);
    if (buffer === undefined) send();
    else buffer.push({ kind: 'action', run: send });
  }

  /**
   * Ends the hold: the buffered copies are enqueued in order, synchronously, before anything sent
   * later (the outbound queue keeps call order). Resolves when they are enqueued.
   */
  release(threadId: string, connectionId: string): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const delivery of this.takeHold(threadId, connectionId)) {
      if (delivery.kind === 'action') delivery.run();
      else sends.push(this.notifier.notify([connectionId], delivery.method, delivery.params));
    }
    return Promise.all(sends).then(() => undefined);
  }

  /** Ends the hold and forgets what it buffered. */
  discardHold(threadId: string, connectionId: string): void {
    this.takeHold(threadId, connectionId);
  }

  private takeHold(threadId: string, connectionId: string): HeldDelivery[] {
    const held = this.holds.get(threadId);
    const buffered = held?.get(connectionId) ?? [];
    held?.delete(connectionId);
    if (held?.size === 0) this.holds.delete(threadId);
    return buffered;
  }

  private send(
    threadId: string,
    recipients: readonly string[],
    method: ServerNotificationMethod,
    params: object,
  ): Promise<void> {
    const held = this.holds.get(threadId);
    const direct: string[] = [];
    for (const connectionId of new Set(recipients)) {
      const buffer = held?.get(connectionId);
      if (buffer === undefined) direct.push(connectionId);
      else buffer.push({ kind: 'notification', method, params });
    }
    return direct.length === 0 ? Promise.resolve() : this.notifier.notify(direct, method, params);
  }
}
