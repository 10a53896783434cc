/** The core's one `ApprovalChannel`: a turn's owner is asked over its own protocol. */
import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalChannel, OwnerAnswer } from '../../core/approvals/approval-channel';
import type { ApprovalRequestParams } from '../../core/model/types';
import { ApprovalRequestChannel } from '../../protocols/app-server-v1/delivery/approval-request-channel';
import { AcpPermissionChannel } from '../../protocols/acp/delivery/acp-permission-channel';

@Injectable()
export class ApprovalChannelRouting implements ApprovalChannel {
  constructor(
    @Inject(ApprovalRequestChannel) private readonly appServer: ApprovalRequestChannel,
    @Inject(AcpPermissionChannel) private readonly acp: AcpPermissionChannel,
  ) {}

  canReach(ownerId: string): boolean {
    return this.channelOf(ownerId).canReach(ownerId);
  }

  ask(ownerId: string, params: ApprovalRequestParams): Promise<OwnerAnswer> {
    return this.channelOf(ownerId).ask(ownerId, params);
  }

  withdraw(ownerId: string, requestId: string): void {
    this.channelOf(ownerId).withdraw(ownerId, requestId);
  }

  private channelOf(ownerId: string): ApprovalChannel {
    return this.acp.serves(ownerId) ? this.acp : this.appServer;
  }
}
