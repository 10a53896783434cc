/** Approval contracts (docs/spec/runtime.md §8). */
import type { SandboxReport } from '../sandbox/sandbox-mode';
export type ApprovalPolicy = 'on-request' | 'untrusted' | 'never';
export type ApprovalAction = 'allow' | 'allow_session' | 'deny' | 'timeout';

export interface ApprovalRequest {
  /** `approval_` + 32 hex; same id in broker, events and the denied result. */
  requestId: string;
  runId: string;
  traceId: string;
  agentName: string;
  cycleIndex: number;
  toolCallId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /** `<tool_name> <compact JSON arguments>` */
  preview: string;
  /** Includes `session_id` when known. */
  metadata: Record<string, unknown>;
  /** docs/spec/sandbox.md §4: set for sandboxed tools (`bash`). */
  sandbox?: SandboxReport;
}

export interface ApprovalDecision {
  action: ApprovalAction;
  /** "" when absent */
  reason?: string;
  metadata?: Record<string, unknown>;
}

export interface ApprovalProvider {
  /** false → run the tool without approval. */
  shouldRequest(request: ApprovalRequest): boolean;
  /** null → wait on the broker. */
  decide(request: ApprovalRequest): Promise<ApprovalDecision | null>;
}
