/**
 * A ThreadEventBus that also relays every broadcast to the other instances on the store, and
 * broadcasts theirs to this instance's subscribers (docs/spec/postgres.md §2). Local delivery is unchanged:
 * the wrapped bus keeps its cursors, holds and ordering; a remote event enters the same thread
 * log, so a subscriber here sees a remote turn exactly as a subscriber on its owner does.
 *
 * Remote events are handed to the local bus one after another (each settled before the next), so
 * a seam's join (remote-thread-join.ts) lands exactly between two of them.
 */
import type { ThreadEventBus, ThreadEventDetail, ThreadEventKind } from './thread-event-bus';
import type { RelayMark, RelayedThreadEvent, ThreadEventRelay } from './thread-event-relay';
import type { RemoteThreadJoin, ThreadSeam } from './remote-thread-join';

/** A seam whose mark's event never arrives (a lost NOTIFY) joins after this long anyway. */
const SEAM_JOIN_FALLBACK_MS = 2_000;

interface OpenSeam {
  readonly threadId: string;
  readonly subscriberId: string;
  readonly join: () => void;
  mark: RelayMark | null;
  joined: boolean;
  readonly afterJoin: Array<() => void>;
  timer: NodeJS.Timeout | null;
}

export class RelayingThreadEventBus implements ThreadEventBus, RemoteThreadJoin {
  private remoteTail: Promise<void> = Promise.resolve();
  private readonly seams = new Set<OpenSeam>();
  /** Remote events held back while a seam of their thread waits for its mark. */
  private readonly heldBack = new Map<string, RelayedThreadEvent[]>();
  /** `${origin}\u0000${threadId}` → the last sequence number handed to the local bus. */
  private readonly delivered = new Map<string, number>();

  constructor(
    private readonly local: ThreadEventBus,
    private readonly relay: ThreadEventRelay,
  ) {
    relay.onRemoteEvent((event) => this.receive(event));
  }

  broadcast(
    threadId: string,
    kind: ThreadEventKind,
    params: object,
    detail?: ThreadEventDetail,
  ): Promise<void> {
    this.relay.publish({ threadId, kind, params, ...(detail !== undefined ? { detail } : {}) });
    return this.local.broadcast(threadId, kind, params, detail);
  }

  hold(threadId: string, subscriberId: string): void {
    this.local.hold(threadId, subscriberId);
  }

  release(threadId: string, subscriberId: string): Promise<void> {
    return this.local.release(threadId, subscriberId);
  }

  discardHold(threadId: string, subscriberId: string): void {
    this.local.discardHold(threadId, subscriberId);
  }

  inThreadOrder(threadId: string, subscriberId: string, send: () => void): void {
    this.local.inThreadOrder(threadId, subscriberId, send);
  }

  paced(threadId: string): Promise<void> {
    return this.local.paced(threadId);
  }

  markOf(threadId: string): RelayMark {
    return this.relay.markOf(threadId);
  }

  openSeam(threadId: string, subscriberId: string, join: () => void): ThreadSeam {
    const seam: OpenSeam = {
      threadId,
      subscriberId,
      join,
      mark: null,
      joined: false,
      afterJoin: [],
      timer: null,
    };
    this.seams.add(seam);
    return {
      at: (mark) => {
        seam.mark = mark;
        this.flushHeldBack(threadId);
        this.enqueue(async () => {
          if ((this.delivered.get(keyOf(mark.origin, threadId)) ?? 0) >= mark.seq) this.joinSeam(seam);
        });
        seam.timer = setTimeout(() => this.enqueue(async () => this.joinSeam(seam)), SEAM_JOIN_FALLBACK_MS);
        seam.timer.unref();
      },
      cancel: () => {
        this.closeSeam(seam);
        for (const step of seam.afterJoin.splice(0)) step();
        this.flushHeldBack(threadId);
      },
    };
  }

  afterJoin(threadId: string, subscriberId: string, step: () => void): void {
    for (const seam of this.seams)
      if (seam.threadId === threadId && seam.subscriberId === subscriberId && !seam.joined) {
        seam.afterJoin.push(step);
        return;
      }
    step();
  }

  private receive(event: RelayedThreadEvent): void {
    const held = this.heldBack.get(event.threadId);
    if (held !== undefined) {
      held.push(event);
      return;
    }
    if (this.awaitsMark(event.threadId)) {
      this.heldBack.set(event.threadId, [event]);
      return;
    }
    this.enqueue(() => this.deliver(event));
  }

  private async deliver(event: RelayedThreadEvent): Promise<void> {
    const { mark } = event;
    for (const seam of this.seamsOf(event.threadId))
      if (mark !== undefined && seam.mark?.origin === mark.origin && mark.seq > seam.mark.seq)
        this.joinSeam(seam);
    await this.local.broadcast(event.threadId, event.kind, event.params, event.detail);
    if (mark === undefined) return;
    this.delivered.set(keyOf(mark.origin, event.threadId), mark.seq);
    for (const seam of this.seamsOf(event.threadId))
      if (seam.mark?.origin === mark.origin && mark.seq >= seam.mark.seq) this.joinSeam(seam);
  }

  private joinSeam(seam: OpenSeam): void {
    if (seam.joined || !this.seams.has(seam)) return;
    this.closeSeam(seam);
    seam.join();
    for (const step of seam.afterJoin.splice(0)) step();
  }

  private closeSeam(seam: OpenSeam): void {
    seam.joined = true;
    if (seam.timer !== null) clearTimeout(seam.timer);
    this.seams.delete(seam);
  }

  private flushHeldBack(threadId: string): void {
    if (this.awaitsMark(threadId)) return;
    const held = this.heldBack.get(threadId) ?? [];
    this.heldBack.delete(threadId);
    for (const event of held) this.enqueue(() => this.deliver(event));
  }

  private awaitsMark(threadId: string): boolean {
    return this.seamsOf(threadId).some((seam) => seam.mark === null);
  }

  private seamsOf(threadId: string): OpenSeam[] {
    return [...this.seams].filter((seam) => seam.threadId === threadId);
  }

  private enqueue(step: () => Promise<void>): void {
    this.remoteTail = this.remoteTail.then(step).catch(() => undefined);
  }
}

function keyOf(origin: string, threadId: string): string {
  return `${origin}\u0000${threadId}`;
}
