/** Protocol data types (protocol.md §5). Wire objects are camelCase except tokenUsage (snake_case). */
import type { ProtocolTaskTokenUsage } from '../../runtime/usage/types';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
export type RequestId = string | number;

export type ThreadStatus = 'idle' | 'running' | 'archived' | 'closed';
export type TurnStatus = 'running' | 'completed' | 'failed' | 'interrupted';
export type AppItemType = 'userMessage' | 'agentMessage' | 'toolCall' | 'approval' | 'error';
export type AppItemStatus = 'inProgress' | 'completed' | 'failed' | 'interrupted';
export type ApprovalDecisionValue = 'allow' | 'allow_session' | 'deny' | 'timeout';
export const APPROVAL_DECISIONS: readonly ApprovalDecisionValue[] = [
  'allow',
  'allow_session',
  'deny',
  'timeout',
];

export interface AppThread {
  threadId: string;
  agentKey: string;
  cwd: string | null;
  status: ThreadStatus;
  metadata: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
  /** history.md §2: null for ordinary threads. */
  forkedFrom?: { threadId: string; turnId: string } | null;
}

export interface AppTurn {
  turnId: string;
  threadId: string;
  runId: string | null;
  status: TurnStatus;
  startedAt: number;
  completedAt: number | null;
  input: Record<string, unknown>[];
  /** `{}` while running; afterwards TurnCompletedParams minus threadId/turnId/runId/status. */
  result: Record<string, unknown>;
}

/** camelCase projection of the runtime's ToolMetadata, without result_retention. */
export interface AppToolMetadata {
  sideEffect: string;
  idempotency: string;
  terminal: boolean;
  capabilityTags: string[];
  costDimensions: string[];
}

export interface AppItem {
  itemId: string;
  threadId: string;
  turnId: string;
  type: AppItemType;
  status: AppItemStatus;
  payload: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export interface AppModelInfo {
  id: string;
  provider?: string;
  displayName?: string;
  contextLength?: number;
  supportsTools: boolean;
  metadata?: Record<string, unknown>;
}

export type AppTokenUsage = ProtocolTaskTokenUsage;

export interface TurnCompletedParams {
  threadId: string;
  turnId: string;
  runId: string;
  status: Exclude<TurnStatus, 'running'>;
  finalOutput?: string;
  error?: string;
  completionReason?: string;
  completionToolName?: string;
  partialOutput?: string;
  tokenUsage: AppTokenUsage;
  budgetUsage?: Record<string, unknown>;
  budgetExhaustion?: Record<string, unknown>;
}

export interface ApprovalRequestParams {
  requestId: string;
  threadId: string;
  turnId: string;
  toolCallId: string;
  toolName: string;
  preview: string;
  arguments: Record<string, unknown>;
}

export interface ApprovalResolvedParams {
  threadId: string;
  turnId: string;
  requestId: string;
  decision: ApprovalDecisionValue;
  reason?: string;
  metadata?: Record<string, unknown>;
}

export interface ErrorWarningParams {
  threadId: string;
  turnId?: string;
  code: 'run_failed' | 'event_stream' | 'store' | 'follow_up';
  message: string;
}
