import { Module } from '@nestjs/common';
import { ThreadStateModule } from './thread-state.module';
import { ApprovalRouter } from '../../core/approvals/approval-router';
import { ApprovalsHandlers } from '../../protocols/app-server-v1/handlers/approvals.handlers';
import { APPROVAL_CHANNEL, type ApprovalChannel } from '../../core/approvals/approval-channel';
import { PersistenceModule } from './persistence.module';
import { REMOTE_APPROVALS, type RemoteApprovals } from '../../core/approvals/remote-approvals';
import { ClusterApprovalChannel } from '../../core/approvals/cluster-approval-channel';
import { ApprovalResolutions } from '../../core/turns/approval-resolutions';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../../core/events/thread-event-bus';
import { REMOTE_THREAD_JOIN, type RemoteThreadJoin } from '../../core/events/remote-thread-join';
import { ApprovalRequestChannel } from '../../protocols/app-server-v1/delivery/approval-request-channel';
import { AcpPermissionChannel } from '../../protocols/acp/delivery/acp-permission-channel';
import { ApprovalChannelRouting } from '../delivery/approval-channel-routing';

/** The approval route, session grants and `approval/resolve` (docs/spec/protocol.md §9, §3.13). */
@Module({
  imports: [PersistenceModule, ThreadStateModule],
  providers: [
    ApprovalsHandlers,
    ApprovalRequestChannel,
    AcpPermissionChannel,
    ApprovalChannelRouting,
    {
      // Several instances on one PostgreSQL store: an owner may be a connection of another instance.
      provide: APPROVAL_CHANNEL,
      useFactory: (
        local: ApprovalChannelRouting,
        remote: RemoteApprovals | null,
        events: ThreadEventBus,
        join: RemoteThreadJoin | null,
      ): ApprovalChannel =>
        remote === null || join === null ? local : new ClusterApprovalChannel(local, remote, events, join),
      inject: [ApprovalChannelRouting, REMOTE_APPROVALS, THREAD_EVENT_BUS, REMOTE_THREAD_JOIN],
    },
    ApprovalRouter,
    ApprovalResolutions,
  ],
  exports: [ApprovalRouter, ApprovalResolutions],
})
export class ApprovalsModule {}
