import { Module } from '@nestjs/common';
import { ThreadStateModule } from './thread-state.module';
import { ApprovalRouter } from '../../core/approvals/approval-router';
import { ApprovalsHandlers } from '../../protocols/app-server-v1/handlers/approvals.handlers';
import { APPROVAL_CHANNEL } from '../../core/approvals/approval-channel';
import { ApprovalRequestChannel } from '../../protocols/app-server-v1/delivery/approval-request-channel';
import { AcpPermissionChannel } from '../../protocols/acp/delivery/acp-permission-channel';
import { ApprovalChannelRouting } from '../delivery/approval-channel-routing';

/** The approval route, session grants and `approval/resolve` (protocol.md §9, §3.13). */
@Module({
  imports: [ThreadStateModule],
  providers: [
    ApprovalsHandlers,
    ApprovalRequestChannel,
    AcpPermissionChannel,
    { provide: APPROVAL_CHANNEL, useClass: ApprovalChannelRouting },
    ApprovalRouter,
  ],
  exports: [ApprovalRouter],
})
export class ApprovalsModule {}
