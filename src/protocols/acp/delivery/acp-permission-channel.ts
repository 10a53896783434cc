/** The approval route's way to an ACP turn owner: `session/request_permission` (docs/spec/acp.md §4). */
import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalChannel, OwnerAnswer } from '../../../core/approvals/approval-channel';
import type { ApprovalRequestParams } from '../../../core/model/types';
import { AcpConnections } from './acp-connections';

@Injectable()
export class AcpPermissionChannel implements ApprovalChannel {
  constructor(@Inject(AcpConnections) private readonly connections: AcpConnections) {}

  serves(ownerId: string): boolean {
    return this.connections.owns(ownerId);
  }

  canReach(ownerId: string): boolean {
    const owner = this.connections.get(ownerId);
    return owner !== undefined && !owner.isClosed;
  }

  ask(ownerId: string, params: ApprovalRequestParams): Promise<OwnerAnswer> {
    return this.connections.get(ownerId)?.askPermission(params) ?? Promise.resolve({ kind: 'closed' });
  }

  withdraw(ownerId: string, requestId: string): void {
    this.connections.get(ownerId)?.withdrawPermission(requestId);
  }
}
