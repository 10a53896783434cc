/** The approval route's way to its turn owner over v1: the `approval/request` server request (§4.14). */
import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalChannel, OwnerAnswer } from '../../../core/approvals/approval-channel';
import type { ApprovalRequestParams } from '../../../core/model/types';
import { ConnectionRegistry } from '../../../rpc/connection-registry';
import { Notifier } from '../notifier';

export const APPROVAL_REQUEST_METHOD = 'approval/request';

@Injectable()
export class ApprovalRequestChannel implements ApprovalChannel {
  constructor(
    @Inject(Notifier) private readonly notifier: Notifier,
    @Inject(ConnectionRegistry) private readonly connections: ConnectionRegistry,
  ) {}

  canReach(ownerId: string): boolean {
    const owner = this.connections.get(ownerId);
    return owner !== undefined && !owner.isClosed;
  }

  ask(ownerId: string, params: ApprovalRequestParams): Promise<OwnerAnswer> {
    return this.notifier.request(ownerId, APPROVAL_REQUEST_METHOD, params, params.requestId);
  }

  withdraw(ownerId: string, requestId: string): void {
    this.notifier.withdraw(ownerId, requestId);
  }
}
