/**
 * The approval provider the server installs when the host sets none (docs/spec/protocol.md §10.2, runtime.md
 * §8.3): ask unless the thread has a session grant for the tool, and never decide itself — the
 * decision comes through the broker from the approval route.
 */
import type { ApprovalDecision, ApprovalProvider, ApprovalRequest } from '../../runtime/approvals/types';
import type { SessionGrants } from './session-grants';

export class ServerApprovalProvider implements ApprovalProvider {
  constructor(
    private readonly threadId: string,
    private readonly grants: SessionGrants,
  ) {}

  shouldRequest(request: ApprovalRequest): boolean {
    return !this.grants.isGranted(this.threadId, request.toolName);
  }

  async decide(_request: ApprovalRequest): Promise<ApprovalDecision | null> {
    return null;
  }
}
