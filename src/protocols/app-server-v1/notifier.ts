/**
 * Sends server notifications and server requests to connections (docs/spec/protocol.md §7.1, §7.4).
 * Notifications are filtered per connection: only connections ready for notifications, and not for
 * methods they opted out of. Server requests are never filtered.
 */
import { Injectable } from '@nestjs/common';
import type { ServerRequestOutcome } from '../../rpc/connection';
import { ConnectionRegistry } from '../../rpc/connection-registry';
import { notificationMessage, serverRequestMessage } from '../../rpc/outbound-messages';
import type { ServerNotificationMethod } from './registry';

@Injectable()
export class Notifier {
  constructor(private readonly connections: ConnectionRegistry) {}

  /**
   * Sends one notification to each of `connectionIds` (each at most once, unknown or closed ones
   * skipped) that passes the readiness and opt-out filter. Resolves when every copy is enqueued —
   * callers that await it honour outbound backpressure (§1.8).
   */
  notify(connectionIds: Iterable<string>, method: ServerNotificationMethod, params: object): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const connectionId of new Set(connectionIds)) {
      const connection = this.connections.get(connectionId);
      if (connection === undefined || connection.isClosed) continue;
      const { readyForNotifications, optOutNotificationMethods } = connection.state;
      if (!readyForNotifications || optOutNotificationMethods.has(method)) continue;
      sends.push(connection.send(notificationMessage(method, params)));
    }
    return Promise.all(sends).then(() => undefined);
  }

  /**
   * Sends a server request (id = `id`, a string) and resolves with how it ended: the client's
   * result or error, `withdrawn` (see `withdraw`), or `closed` when the connection is gone or closes
   * first. Never rejects.
   */
  request(connectionId: string, method: string, params: object, id: string): Promise<ServerRequestOutcome> {
    const connection = this.connections.get(connectionId);
    if (connection === undefined || connection.isClosed) return Promise.resolve({ kind: 'closed' });
    const outcome = connection.expectAnswer(id);
    void connection.send(serverRequestMessage(id, method, params));
    return outcome;
  }

  /** Withdraws a pending server request: it settles as `withdrawn`; a later client answer is ignored. */
  withdraw(connectionId: string, id: string): boolean {
    return this.connections.get(connectionId)?.settleServerRequest(id, { kind: 'withdrawn' }) ?? false;
  }
}
