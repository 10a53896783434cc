/**
 * RemoteApprovals over the cluster channel (docs/spec/postgres.md §2 "server requests go to the owner
 * connection, wherever it is"): the turn's instance sends the question to the owner's instance,
 * which asks its connection and sends back how that ended, addressed by ask id.
 */
import { randomUUID } from 'node:crypto';
import type { OwnerAnswer } from '../../../core/approvals/approval-channel';
import type { LocalOwnerAsker, RemoteApprovals } from '../../../core/approvals/remote-approvals';
import type { ApprovalRequestParams } from '../../../core/model/types';
import type { ClusterChannel, ClusterMessage } from './cluster-channel';

const ASK_KIND = 'approvalAsk';
const OUTCOME_KIND = 'approvalOutcome';
const WITHDRAW_KIND = 'approvalWithdraw';

export class NotifyRemoteApprovals implements RemoteApprovals {
  private readonly pending = new Map<string, (outcome: OwnerAnswer) => void>();
  private asker: LocalOwnerAsker | undefined;

  constructor(private readonly channel: ClusterChannel) {
    channel.onMessage((message) => this.receive(message));
  }

  ask(instanceId: string, connectionId: string, params: ApprovalRequestParams): Promise<OwnerAnswer> {
    const askId = randomUUID();
    return new Promise((resolve) => {
      this.pending.set(askId, (outcome) => {
        this.pending.delete(askId);
        resolve(outcome);
      });
      this.channel
        .send({ kind: ASK_KIND, to: instanceId, askId, connectionId, params })
        .catch(() => this.pending.get(askId)?.({ kind: 'closed' }));
    });
  }

  withdraw(instanceId: string, connectionId: string, requestId: string): void {
    void this.channel
      .send({ kind: WITHDRAW_KIND, to: instanceId, connectionId, requestId })
      .catch(() => undefined);
  }

  serveWith(asker: LocalOwnerAsker): void {
    this.asker = asker;
  }

  private receive(message: ClusterMessage): void {
    if (message.to !== this.channel.instanceId) return;
    if (message.kind === OUTCOME_KIND) {
      this.pending.get(String(message.askId))?.(message.outcome as OwnerAnswer);
      return;
    }
    if (this.asker === undefined) return;
    const connectionId = String(message.connectionId);
    if (message.kind === WITHDRAW_KIND) {
      this.asker.withdraw(connectionId, String(message.requestId));
      return;
    }
    if (message.kind !== ASK_KIND) return;
    void this.asker
      .ask(connectionId, message.params as ApprovalRequestParams)
      .then((outcome) =>
        this.channel
          .send({ kind: OUTCOME_KIND, to: message.from, askId: message.askId, outcome })
          .catch(() => undefined),
      );
  }
}
