/**
 * The core's one `ThreadEventBus`, served by every protocol's delivery: an event goes to each
 * protocol's subscribers (each bus skips ids it does not serve); per-subscriber steps go to the
 * bus of that subscriber's protocol.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ThreadEventBus, ThreadEventDetail, ThreadEventKind } from '../../core/events/thread-event-bus';
import { ThreadNotifications } from '../../protocols/app-server-v1/delivery/thread-notifications';
import { AcpSessionEvents } from '../../protocols/acp/delivery/acp-session-events';

@Injectable()
export class ThreadEventRouting implements ThreadEventBus {
  constructor(
    @Inject(ThreadNotifications) private readonly appServer: ThreadNotifications,
    @Inject(AcpSessionEvents) private readonly acp: AcpSessionEvents,
  ) {}

  /**
   * Both protocols' logs take the event in the caller's tick: a resume's snapshot taken in a later
   * tick then never finds projected state whose event is not yet in a log (docs/spec/websocket.md §5).
   */
  broadcast(
    threadId: string,
    kind: ThreadEventKind,
    params: object,
    detail?: ThreadEventDetail,
  ): Promise<void> {
    const acp = this.acp.broadcast(threadId, kind, params, detail);
    const appServer = this.appServer.broadcast(threadId, kind, params);
    return acp.then(() => appServer);
  }

  hold(threadId: string, subscriberId: string): void {
    this.busOf(subscriberId).hold(threadId, subscriberId);
  }

  release(threadId: string, subscriberId: string): Promise<void> {
    return this.busOf(subscriberId).release(threadId, subscriberId);
  }

  discardHold(threadId: string, subscriberId: string): void {
    this.busOf(subscriberId).discardHold(threadId, subscriberId);
  }

  inThreadOrder(threadId: string, subscriberId: string, send: () => void): void {
    this.busOf(subscriberId).inThreadOrder(threadId, subscriberId, send);
  }

  /**
   * Each protocol paces by its own readers (docs/spec/protocol.md §1.8). A thread with subscribers of
   * both protocols in one process (an embedding; `app-server` and `acp` each serve one) waits for both.
   */
  paced(threadId: string): Promise<void> {
    return Promise.all([this.appServer.paced(threadId), this.acp.paced(threadId)]).then(() => undefined);
  }

  private busOf(subscriberId: string): ThreadEventBus {
    return this.acp.serves(subscriberId) ? this.acp : this.appServer;
  }
}
