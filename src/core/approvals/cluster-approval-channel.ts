/**
 * The ApprovalChannel of an instance on a shared store (docs/spec/postgres.md §2): an owner that is a
 * connection here is asked over its protocol; one that is a connection of another instance (it
 * resumed the thread there and took the turn over, docs/spec/websocket.md §6) is asked through that
 * instance. In the other direction, another instance's question for a connection here is asked
 * after that connection's resume has joined the thread, so it follows the resume response and the
 * notifications held for it, as on the owner's instance.
 */
import type { ApprovalRequestParams } from '../model/types';
import type { ThreadEventBus } from '../events/thread-event-bus';
import type { RemoteThreadJoin } from '../events/remote-thread-join';
import type { ApprovalChannel, OwnerAnswer } from './approval-channel';
import type { RemoteApprovals } from './remote-approvals';
import { parseRemoteOwner } from './remote-owner';

export class ClusterApprovalChannel implements ApprovalChannel {
  /** Remote owners whose instance reported their connection gone. */
  private readonly gone = new Set<string>();

  constructor(
    private readonly local: ApprovalChannel,
    private readonly remote: RemoteApprovals,
    events: ThreadEventBus,
    join: RemoteThreadJoin,
  ) {
    remote.serveWith({
      ask: (connectionId, params) =>
        new Promise<OwnerAnswer>((resolve) => {
          if (!local.canReach(connectionId)) {
            resolve({ kind: 'closed' });
            return;
          }
          join.afterJoin(params.threadId, connectionId, () =>
            events.inThreadOrder(params.threadId, connectionId, () => {
              void local.ask(connectionId, params).then(resolve);
            }),
          );
        }),
      withdraw: (connectionId, requestId) => local.withdraw(connectionId, requestId),
    });
  }

  canReach(ownerId: string): boolean {
    if (parseRemoteOwner(ownerId) === null) return this.local.canReach(ownerId);
    return !this.gone.has(ownerId);
  }

  async ask(ownerId: string, params: ApprovalRequestParams): Promise<OwnerAnswer> {
    const owner = parseRemoteOwner(ownerId);
    if (owner === null) return this.local.ask(ownerId, params);
    const outcome = await this.remote.ask(owner.instanceId, owner.connectionId, params);
    if (outcome.kind === 'closed') this.gone.add(ownerId);
    return outcome;
  }

  withdraw(ownerId: string, requestId: string): void {
    const owner = parseRemoteOwner(ownerId);
    if (owner === null) this.local.withdraw(ownerId, requestId);
    else this.remote.withdraw(owner.instanceId, owner.connectionId, requestId);
  }
}
