/** Shared approval state between the run and whoever answers approvals (docs/spec/runtime.md §8.4). */
import type { ApprovalDecision, ApprovalRequest } from './types';

interface PendingApproval {
  request: ApprovalRequest;
  decision?: ApprovalDecision;
  waiters: Array<(decision: ApprovalDecision) => void>;
}

export const APPROVAL_TIMEOUT_REASON = 'Approval request timed out.';

export class ApprovalBroker {
  private readonly pending = new Map<string, PendingApproval>();
  private readonly sessionAllowedTools = new Set<string>();
  private cancelDecision: ApprovalDecision | undefined;

  /** Stores the request; pre-decides it when the broker is cancelled or the tool is session-allowed. */
  register(request: ApprovalRequest): void {
    const entry: PendingApproval = { request, waiters: [] };
    if (this.cancelDecision) entry.decision = this.cancelDecision;
    else if (this.sessionAllowedTools.has(request.toolName)) entry.decision = { action: 'allow_session' };
    this.pending.set(request.requestId, entry);
  }

  /** First resolution wins; throws `unknown approval request: <id>` when not pending or decided. */
  resolve(requestId: string, decision: ApprovalDecision): void {
    const entry = this.pending.get(requestId);
    if (!entry || entry.decision) throw new Error(`unknown approval request: ${requestId}`);
    this.decide(entry, this.cancelDecision ?? decision);
  }

  allowsToolForSession(toolName: string): boolean {
    return this.cancelDecision === undefined && this.sessionAllowedTools.has(toolName);
  }

  pendingRequest(requestId: string): ApprovalRequest | undefined {
    const entry = this.pending.get(requestId);
    return entry && !entry.decision ? entry.request : undefined;
  }

  /** Permanently denies: decides every pending undecided request and all later registrations. */
  cancelPending(reason: string): number {
    this.cancelDecision = { action: 'deny', reason };
    let count = 0;
    for (const entry of this.pending.values()) {
      if (entry.decision) continue;
      this.decide(entry, this.cancelDecision);
      count += 1;
    }
    return count;
  }

  /** Forgets a request without deciding it (the approval provider failed). */
  discard(requestId: string): void {
    this.pending.delete(requestId);
  }

  /** Resolves once decided (removing the entry); on timeout removes it and returns a timeout decision. */
  wait(requestId: string, timeoutMs?: number): Promise<ApprovalDecision> {
    const entry = this.pending.get(requestId);
    if (!entry) return Promise.reject(new Error(`unknown approval request: ${requestId}`));
    if (entry.decision) {
      this.pending.delete(requestId);
      return Promise.resolve(entry.decision);
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      entry.waiters.push((decision) => {
        if (timer) clearTimeout(timer);
        this.pending.delete(requestId);
        resolve(decision);
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => {
            if (this.pending.get(requestId) !== entry || entry.decision) return;
            this.pending.delete(requestId);
            resolve({ action: 'timeout', reason: APPROVAL_TIMEOUT_REASON });
          },
          Math.max(0, timeoutMs),
        );
      }
    });
  }

  private decide(entry: PendingApproval, decision: ApprovalDecision): void {
    entry.decision = decision;
    if (decision.action === 'allow_session') this.sessionAllowedTools.add(entry.request.toolName);
    const waiters = entry.waiters.splice(0);
    for (const waiter of waiters) waiter(decision);
  }
}
