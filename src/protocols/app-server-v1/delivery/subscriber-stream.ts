/**
 * One connection's view of one thread's event log: a cursor plus what the connection still has to
 * take from it. Notifications the connection does not want (readiness, opt-out, §7.4) are skipped
 * both when counted and when taken, with the same test. While held (the `thread/resume` window,
 * §3.4 step 3) new notifications are counted but not yet due; `release` makes them due in place,
 * interleaved with the sends that had to wait for them (the owner's `approval/request`).
 */
import type { EventCursor } from '../../../core/events/thread-event-log';
import type { Connection } from '../../../rpc/connection';
import { notificationMessage } from '../../../rpc/outbound-messages';
import type { OutboundSource } from '../../../rpc/outbound-source';
import type { ServerNotificationMethod } from '../registry';

export interface ThreadNotification {
  method: ServerNotificationMethod;
  params: object;
}

/** What a held stream accumulated: runs of notifications and the sends that follow them. */
type HeldSegment = { kind: 'notifications'; count: number } | { kind: 'action'; run: () => void };

export class SubscriberStream implements OutboundSource {
  private held: HeldSegment[] | null = null;
  /** Notifications counted and not yet taken (due or held). */
  private outstanding = 0;
  /** Set by `detach`: the sequence number from which this stream reads nothing. */
  private endsAt: number | null = null;

  constructor(
    private readonly cursor: EventCursor<ThreadNotification>,
    readonly connection: Connection,
    /** Called after each notification the connection took (the thread's pace follows it). */
    private readonly onTaken: () => void = () => undefined,
  ) {}

  get isClosed(): boolean {
    return this.cursor.isClosed;
  }

  /** Notifications counted (due or held) and not yet taken. */
  get backlog(): number {
    return this.outstanding;
  }

  get isHeld(): boolean {
    return this.held !== null;
  }

  /** A notification was appended to the log after this stream opened; counts it when wanted. */
  offer(notification: ThreadNotification): void {
    if (this.endsAt !== null || !this.wants(notification)) return;
    this.outstanding += 1;
    if (this.held === null) {
      this.connection.enqueueFrom(this);
      return;
    }
    const last = this.held.at(-1);
    if (last?.kind === 'notifications') last.count += 1;
    else this.held.push({ kind: 'notifications', count: 1 });
  }

  take(): object | undefined {
    for (let event = this.cursor.next(); event !== undefined; event = this.cursor.next()) {
      if (this.endsAt !== null && this.cursor.position > this.endsAt) break;
      if (!this.wants(event)) continue;
      this.outstanding -= 1;
      if (this.endsAt !== null && this.outstanding === 0) this.cursor.close();
      this.onTaken();
      return notificationMessage(event.method, event.params);
    }
    if (this.endsAt !== null) this.cursor.close();
    return undefined;
  }

  hold(): void {
    this.held ??= [];
  }

  /** Runs `send` now, or — while held — right after the notifications held before it. */
  inOrder(send: () => void): void {
    if (this.held === null) send();
    else this.held.push({ kind: 'action', run: send });
  }

  /** Ends the hold: held notifications become due, in place, before anything produced later. */
  release(): void {
    const segments = this.held ?? [];
    this.held = null;
    for (const segment of segments) {
      if (segment.kind === 'action') segment.run();
      else this.connection.enqueueFrom(this, segment.count);
    }
  }

  /**
   * No more notifications for this stream (the connection unsubscribed): what was already due is
   * still delivered, then the cursor closes. `end` is the log's end at that moment.
   */
  detach(end: number): void {
    this.endsAt = end;
    if (this.held !== null) this.close();
    else if (this.outstanding === 0) this.cursor.close();
  }

  close(): void {
    this.held = null;
    this.cursor.close();
  }

  private wants(notification: ThreadNotification): boolean {
    const { readyForNotifications, optOutNotificationMethods } = this.connection.state;
    return readyForNotifications && !optOutNotificationMethods.has(notification.method);
  }
}
