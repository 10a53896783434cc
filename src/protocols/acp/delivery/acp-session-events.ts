/**
 * The core's `ThreadEventBus` over ACP connections: every event of a thread reaches each ACP
 * subscriber's connection, which maps it to `session/update`s in thread order. Ids of other
 * protocols' subscribers are not this bus's business.
 */
import { Inject, Injectable } from '@nestjs/common';
import type {
  ThreadEventBus,
  ThreadEventDetail,
  ThreadEventKind,
} from '../../../core/events/thread-event-bus';
import { ThreadSubscriptions } from '../../../core/events/thread-subscriptions';
import { AcpConnections } from './acp-connections';
import { ACP_PAUSE_AT, type AcpSessionConnection } from './acp-session-connection';

@Injectable()
export class AcpSessionEvents implements ThreadEventBus {
  constructor(
    @Inject(AcpConnections) private readonly connections: AcpConnections,
    @Inject(ThreadSubscriptions) private readonly subscriptions: ThreadSubscriptions,
  ) {}

  /** True when `subscriberId` is an ACP connection (routing between protocols' buses). */
  serves(subscriberId: string): boolean {
    return this.connections.owns(subscriberId);
  }

  broadcast(
    threadId: string,
    kind: ThreadEventKind,
    params: object,
    detail?: ThreadEventDetail,
  ): Promise<void> {
    for (const subscriberId of this.subscriptions.subscribers(threadId))
      this.connections.get(subscriberId)?.deliver(threadId, kind, params, detail);
    return Promise.resolve();
  }

  hold(threadId: string, subscriberId: string): void {
    this.connections.get(subscriberId)?.hold(threadId);
  }

  release(threadId: string, subscriberId: string): Promise<void> {
    this.connections.get(subscriberId)?.release(threadId);
    return Promise.resolve();
  }

  discardHold(threadId: string, subscriberId: string): void {
    this.connections.get(subscriberId)?.discardHold(threadId);
  }

  /**
   * docs/spec/protocol.md §1.8 "background turn forwarding pauses" (`vv-agent acp` is a stdio server):
   * at once unless every open ACP subscriber of the thread has ACP_PAUSE_AT messages unwritten; then
   * once one of them caught up. Without it an editor that stopped reading made the connection
   * queue every update of the turn (100 000 deltas: about +90 MiB resident, rising per delta).
   */
  paced(threadId: string): Promise<void> {
    const readers: AcpSessionConnection[] = [];
    for (const subscriberId of this.subscriptions.subscribers(threadId)) {
      const connection = this.connections.get(subscriberId);
      if (connection === undefined || connection.isClosed) continue;
      if (connection.backlog < ACP_PAUSE_AT) return Promise.resolve();
      readers.push(connection);
    }
    return readers.length === 0
      ? Promise.resolve()
      : Promise.race(readers.map((connection) => connection.caughtUp()));
  }

  inThreadOrder(threadId: string, subscriberId: string, send: () => void): void {
    const connection = this.connections.get(subscriberId);
    if (connection === undefined) send();
    else connection.inThreadOrder(threadId, send);
  }
}
