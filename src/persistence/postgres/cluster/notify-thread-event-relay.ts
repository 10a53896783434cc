/**
 * ThreadEventRelay over the cluster channel (docs/spec/postgres.md §2 live fan-out). Each event carries a
 * per-thread sequence number of its sender; a receiver that sees a number skipped (a NOTIFY lost,
 * e.g. while its connection was re-established) first re-reads from the store the item states of
 * the thread's running turn and of the turns it saw start and not end, and delivers them (clients
 * upsert by itemId; a lost delta is covered by the item state) with the ends of those that ended
 * and the running turn's start when that was lost too, then the event. A turn's last
 * events have no next one to show them lost: after a reconnect (this instance's, or the sender's,
 * announced on the channel) RemoteTurnEnds restores them.
 */
import type { ThreadEventDetail } from '../../../core/events/thread-event-bus';
import type {
  RelayMark,
  RelayedThreadEvent,
  ThreadEventRelay,
} from '../../../core/events/thread-event-relay';
import type { ThreadStore } from '../../../core/store/thread-store';
import type { ClusterChannel, ClusterMessage } from './cluster-channel';
import { eventKindOf, eventWireName } from './cluster-wire-names';
import { RemoteMessageTexts } from './remote-message-texts';
import { RemoteTurnEnds, storedItemStates } from './remote-turn-ends';

const EVENT_KIND = 'threadEvent';
/** Sent by an instance whose connection was replaced: its sends in between may have been lost. */
const RECONNECTED_KIND = 'threadEventsReconnected';

interface EventMessage extends ClusterMessage {
  threadId: string;
  seq: number;
  /** The event's kind as the channel names it (cluster-wire-names.ts). */
  name: string;
  params: object;
  detail?: ThreadEventDetail;
}

function isEventMessage(message: ClusterMessage): message is EventMessage {
  return (
    message.kind === EVENT_KIND && typeof message.threadId === 'string' && typeof message.seq === 'number'
  );
}

export class NotifyThreadEventRelay implements ThreadEventRelay {
  private readonly sent = new Map<string, number>();
  /** `${sender}\u0000${threadId}` → the last sequence number received. */
  private readonly received = new Map<string, number>();
  private readonly listeners: Array<(event: RelayedThreadEvent) => void> = [];
  private repairs: Promise<void> = Promise.resolve();
  private readonly turnEnds: RemoteTurnEnds;
  private readonly messageTexts = new RemoteMessageTexts();
  /** Gaps detected (diagnostics, tests). */
  gaps = 0;

  constructor(
    private readonly channel: ClusterChannel,
    private readonly store: ThreadStore,
  ) {
    this.turnEnds = new RemoteTurnEnds(store);
    channel.onMessage((message) => {
      if (isEventMessage(message)) this.receive(message);
      else if (message.kind === RECONNECTED_KIND) this.restoreTurnEnds(message.from);
    });
    channel.onReconnected(() => {
      this.restoreTurnEnds();
      this.channel.send({ kind: RECONNECTED_KIND }).catch(() => undefined);
    });
  }

  publish(event: RelayedThreadEvent): void {
    const seq = (this.sent.get(event.threadId) ?? 0) + 1;
    this.sent.set(event.threadId, seq);
    // In order with what this instance received before.
    this.enqueue(() => Promise.resolve(this.turnEnds.observeOwn(event)));
    // A failed send was reported by the channel; receivers repair the gap it leaves.
    this.channel
      .send({
        kind: EVENT_KIND,
        threadId: event.threadId,
        seq,
        name: eventWireName(event.kind),
        params: event.params,
        ...(event.detail !== undefined ? { detail: event.detail } : {}),
      })
      .catch(() => undefined);
  }

  markOf(threadId: string): RelayMark {
    return { origin: this.channel.instanceId, seq: this.sent.get(threadId) ?? 0 };
  }

  onRemoteEvent(listener: (event: RelayedThreadEvent) => void): void {
    this.listeners.push(listener);
  }

  setLocalTurns(isLocalTurn: (threadId: string) => boolean): void {
    this.turnEnds.setLocalTurns(isLocalTurn);
  }

  streamedText(itemId: string): string | undefined {
    return this.messageTexts.textOf(itemId);
  }

  private receive(message: EventMessage): void {
    const key = `${message.from}\u0000${message.threadId}`;
    const last = this.received.get(key);
    this.received.set(key, message.seq);
    const kind = eventKindOf(message.name);
    const event: RelayedThreadEvent | undefined = kind && {
      threadId: message.threadId,
      kind,
      params: message.params,
      ...(message.detail !== undefined ? { detail: message.detail } : {}),
      mark: { origin: message.from, seq: message.seq },
    };
    const gap = last !== undefined && message.seq !== last + 1;
    if (gap) this.gaps += 1;
    // Behind the repairs and restores still reading the store, so the thread's order holds; what
    // the event means for its turn is taken there too, in delivery order.
    this.enqueue(async () => {
      if (gap) await this.repair(message.threadId, message.from).catch(() => undefined);
      // A kind this version does not know (a newer instance's) still counts in the sequence.
      if (event !== undefined && this.turnEnds.observe(message.from, event)) this.deliver(event);
    });
  }

  /** The open turns of `origin` (of every instance when undefined), in delivery order. */
  private restoreTurnEnds(origin?: string): void {
    this.enqueue(async () => {
      for (const threadId of this.turnEnds.threadsWithOpenTurns(origin)) {
        const events = await this.turnEnds.restore(threadId).catch(() => []);
        for (const event of events) this.deliver(event);
        const ended = events.filter((event) => event.kind === 'turnCompleted').length;
        if (ended > 0)
          process.stderr.write(
            `[cluster] ${ended} turn end(s) of thread ${threadId} missed while reconnecting, delivered from the store\n`,
          );
      }
    });
  }

  private enqueue(step: () => Promise<void>): void {
    this.repairs = this.repairs.then(step).catch(() => undefined);
  }

  /**
   * What the gap in `origin`'s events may have held, from the store: the turns seen starting here
   * brought up to date (item states, and the ends of those that ended), then the running turn's
   * start if it was never seen, and its item states.
   */
  private async repair(threadId: string, origin: string): Promise<void> {
    const snapshot = await this.store.readThread(threadId);
    if (snapshot === null) return;
    const seen = new Set(this.turnEnds.openTurnIds(threadId));
    for (const event of this.turnEnds.restoreFrom(snapshot)) this.deliver(event);
    for (const event of this.turnEnds.restoreStart(snapshot, origin)) this.deliver(event);
    const running = snapshot.turns.find((turn) => turn.status === 'running')?.turnId;
    if (running === undefined || seen.has(running)) return;
    for (const event of storedItemStates(snapshot, (turnId) => turnId === running)) this.deliver(event);
  }

  private deliver(event: RelayedThreadEvent): void {
    this.messageTexts.observe(event);
    for (const listener of this.listeners) listener(event);
  }
}
