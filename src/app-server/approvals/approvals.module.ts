import { Module } from '@nestjs/common';
import { ThreadStateModule } from '../threads/thread-state.module';
import { ApprovalRouter } from './approval-router';
import { ApprovalsController } from './approvals.controller';
import { SessionGrants } from './session-grants';

/** The approval route, session grants and `approval/resolve` (protocol.md §9, §3.13). */
@Module({
  imports: [ThreadStateModule],
  controllers: [ApprovalsController],
  providers: [SessionGrants, ApprovalRouter],
  exports: [SessionGrants, ApprovalRouter],
})
export class ApprovalsModule {}
