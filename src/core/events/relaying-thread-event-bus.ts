/**
 * A ThreadEventBus that also relays every broadcast to the other instances on the store, and
 * broadcasts theirs to this instance's subscribers (postgres.md §2). Local delivery is unchanged:
 * the wrapped bus keeps its cursors, holds and ordering; a remote event enters the same thread
 * log, so a subscriber here sees a remote turn exactly as a subscriber on its owner does.
 */
import type { ThreadEventBus, ThreadEventName } from './thread-event-bus';
import type { ThreadEventRelay } from './thread-event-relay';

export class RelayingThreadEventBus implements ThreadEventBus {
  constructor(
    private readonly local: ThreadEventBus,
    private readonly relay: ThreadEventRelay,
  ) {
    relay.onRemoteEvent((event) => void local.broadcast(event.threadId, event.name, event.params));
  }

  broadcast(threadId: string, name: ThreadEventName, params: object): Promise<void> {
    this.relay.publish({ threadId, name, params });
    return this.local.broadcast(threadId, name, params);
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
}
