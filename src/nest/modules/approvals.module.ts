import { Module } from '@nestjs/common';
import { ThreadStateModule } from './thread-state.module';
import { ApprovalRouter } from '../../core/approvals/approval-router';
import { ApprovalsController } from '../../protocols/app-server-v1/handlers/approvals.controller';
import { SessionGrants } from '../../core/approvals/session-grants';

/** The approval route, session grants and `approval/resolve` (protocol.md §9, §3.13). */
@Module({
  imports: [ThreadStateModule],
  controllers: [ApprovalsController],
  providers: [SessionGrants, ApprovalRouter],
  exports: [SessionGrants, ApprovalRouter],
})
export class ApprovalsModule {}
