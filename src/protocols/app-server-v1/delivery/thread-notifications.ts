/**
 * Sends a thread's notifications to its recipients (docs/spec/protocol.md §7.1). Every notification of a
 * thread is appended once to the thread's event log; each subscribed connection reads the log
 * through its own cursor (a `SubscriberStream`) as fast as it writes, so a connection that stops
 * reading never slows the turn while another subscriber keeps up, and holds no copies of what it
 * missed. When every subscriber lags, `paced` makes turn forwarding wait (§1.8), so the log holds
 * a bounded backlog. Recipients are the subscribers at the moment a notification is produced.
 *
 * The `thread/resume` hold (§3.4 step 3): while a connection is held for a thread, its share of
 * that thread's notifications is counted but not yet due; `release` makes it due right after the
 * resume response and before any later message.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ConnectionRegistry } from '../../../rpc/connection-registry';
import { Notifier } from '../notifier';
import type { ServerNotificationMethod } from '../registry';
import type { ThreadEventBus, ThreadEventKind } from '../../../core/events/thread-event-bus';
import { ThreadEventLog } from '../../../core/events/thread-event-log';
import { ReaderPace } from './reader-pace';
import { SubscriberStream, type ThreadNotification } from './subscriber-stream';
import { v1MethodOf } from './v1-notification-methods';
import { ThreadSubscriptions } from '../../../core/events/thread-subscriptions';

interface ThreadChannel {
  readonly log: ThreadEventLog<ThreadNotification>;
  /** connectionId → its stream; also streams still draining after an unsubscribe. */
  readonly streams: Map<string, SubscriberStream>;
  /** Turn forwarding's pause for this thread, following its fastest stream. */
  readonly pace: ReaderPace;
}

@Injectable()
export class ThreadNotifications implements ThreadEventBus {
  private readonly channels = new Map<string, ThreadChannel>();

  constructor(
    @Inject(Notifier) private readonly notifier: Notifier,
    @Inject(ThreadSubscriptions) private readonly subscriptions: ThreadSubscriptions,
    @Inject(ConnectionRegistry) private readonly connections: ConnectionRegistry,
  ) {
    connections.onConnectionClosed((connection) => {
      this.subscriptions.dropSubscriber(connection.id);
      for (const [threadId, channel] of this.channels) {
        channel.streams.get(connection.id)?.close();
        channel.streams.delete(connection.id);
        channel.pace.check();
        this.forgetIfUnused(threadId, channel);
      }
    });
  }

  /**
   * Every current subscriber of the thread ("broadcast"), as the v1 notification of the event's
   * kind. Never waits for a reader: the returned promise is settled once the notification is in
   * the thread's log.
   */
  broadcast(threadId: string, kind: ThreadEventKind, params: object): Promise<void> {
    this.publish(threadId, this.subscriptions.subscribers(threadId), { method: v1MethodOf(kind), params });
    return Promise.resolve();
  }

  /**
   * The requester, unless it is a subscriber of the thread: what the core announced to the
   * subscribers reaches it that way already (thread/archive, thread/updated).
   */
  async toRequesterUnlessSubscribed(
    threadId: string,
    requesterId: string,
    events: ReadonlyArray<{ kind: ThreadEventKind; params: object }>,
  ): Promise<void> {
    if (this.subscriptions.subscribers(threadId).includes(requesterId)) return;
    for (const { kind, params } of events)
      await this.notifier.notify([requesterId], v1MethodOf(kind), params);
  }

  /** Only the requester (thread/started, thread/closed). */
  toRequester(requesterId: string, method: ServerNotificationMethod, params: object): Promise<void> {
    return this.notifier.notify([requesterId], method, params);
  }

  /** Starts holding `connectionId`'s share of the thread's notifications (idempotent). */
  hold(threadId: string, connectionId: string): void {
    this.streamOf(threadId, connectionId)?.hold();
  }

  /**
   * Runs `send` (something for `connectionId` about this thread that is not a notification, e.g.
   * the owner's `approval/request`) now, or — while the connection is held — right after the
   * notifications held before it, so it keeps its place in the thread's order (§7.5).
   */
  inThreadOrder(threadId: string, connectionId: string, send: () => void): void {
    const stream = this.channels.get(threadId)?.streams.get(connectionId);
    if (stream === undefined) send();
    else stream.inOrder(send);
  }

  /** Ends the hold: what was held becomes due, before anything produced later. */
  release(threadId: string, connectionId: string): Promise<void> {
    this.channels.get(threadId)?.streams.get(connectionId)?.release();
    return Promise.resolve();
  }

  /** Ends the hold and forgets what it held (the resume failed and did not subscribe). */
  discardHold(threadId: string, connectionId: string): void {
    const channel = this.channels.get(threadId);
    const stream = channel?.streams.get(connectionId);
    if (channel === undefined || stream === undefined) return;
    stream.close();
    channel.streams.delete(connectionId);
    channel.pace.check();
    this.forgetIfUnused(threadId, channel);
  }

  /** Settles at once unless every subscriber of the thread lags far behind; then once one caught up. */
  paced(threadId: string): Promise<void> {
    return this.channels.get(threadId)?.pace.wait() ?? Promise.resolve();
  }

  /** Events the thread's log keeps for subscribers that have not read them yet (diagnostics, tests). */
  retainedEvents(threadId: string): number {
    return this.channels.get(threadId)?.log.retained ?? 0;
  }

  private publish(threadId: string, recipients: readonly string[], notification: ThreadNotification): void {
    if (recipients.length === 0 && !this.channels.has(threadId)) return;
    for (const connectionId of recipients) this.streamOf(threadId, connectionId);
    const channel = this.channels.get(threadId);
    if (channel === undefined) return;
    // Recipients are distinct (they come from a subscription set): when every one has a stream
    // and there are no other streams, nobody unsubscribed, and the common case (every streamed
    // delta) skips building a set and walking the map.
    const unchanged =
      channel.streams.size === recipients.length &&
      recipients.every((connectionId) => channel.streams.has(connectionId));
    if (!unchanged) this.detachUnsubscribed(channel, new Set(recipients));
    channel.log.append(notification);
    for (const connectionId of recipients) channel.streams.get(connectionId)?.offer(notification);
    this.forgetIfUnused(threadId, channel);
  }

  private detachUnsubscribed(channel: ThreadChannel, wanted: ReadonlySet<string>): void {
    for (const [connectionId, stream] of channel.streams) {
      if (!wanted.has(connectionId) && !stream.isHeld) {
        // Unsubscribed: it still drains what was due (the connection's queue holds on to it).
        stream.detach(channel.log.end);
        channel.streams.delete(connectionId);
        channel.pace.check();
      }
    }
  }

  /** The connection's open stream for the thread, opened at the log's end when there is none. */
  private streamOf(threadId: string, connectionId: string): SubscriberStream | undefined {
    const connection = this.connections.get(connectionId);
    if (connection === undefined || connection.isClosed) return undefined;
    let channel = this.channels.get(threadId);
    if (channel === undefined) {
      const streams = new Map<string, SubscriberStream>();
      channel = { log: new ThreadEventLog(), streams, pace: new ReaderPace(() => streams.values()) };
      this.channels.set(threadId, channel);
    }
    let stream = channel.streams.get(connectionId);
    if (stream === undefined || stream.isClosed) {
      const { pace } = channel;
      stream = new SubscriberStream(channel.log.openCursor(), connection, () => pace.check());
      channel.streams.set(connectionId, stream);
      // A new reader starts with nothing to take: forwarding may go on for it.
      pace.check();
    }
    return stream;
  }

  /** Every path that closes or detaches a stream removes it from the map, so the size tells. */
  private forgetIfUnused(threadId: string, channel: ThreadChannel): void {
    if (channel.streams.size > 0) return;
    this.channels.delete(threadId);
    channel.pace.releaseAll();
  }
}
