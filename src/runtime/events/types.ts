/** RunEvent wire v2 (docs/spec/runtime.md §6): one flat snake_case object per event. */
import type { ModelCallIdentity, TokenUsage } from '../usage/types';
import type { ToolMetadata } from '../tool-metadata/types';
import type { Message } from '../messages';
import type { SandboxReport } from '../sandbox/sandbox-mode';

/** How a tool call ended, as `tool_call_completed` reports it and its ToolExecutionResult carries it (§9.7). */
export type ToolStatus = 'success' | 'error' | 'wait_response' | 'running' | 'pending_compress';
export type ToolDirective = 'continue' | 'finish' | 'wait_user';

export type CompletionReason =
  | 'tool_finish'
  | 'no_tool_finish'
  | 'stop_on_first_tool'
  | 'stop_at_tool_name'
  | 'wait_user'
  | 'max_cycles'
  | 'cancelled'
  | 'failed'
  | 'budget_exhausted';

export const COMPLETION_REASONS: readonly CompletionReason[] = [
  'tool_finish',
  'no_tool_finish',
  'stop_on_first_tool',
  'stop_at_tool_name',
  'wait_user',
  'max_cycles',
  'cancelled',
  'failed',
  'budget_exhausted',
];

/** Envelope fields shared by every event (§6.1). Optional ones are omitted when null/empty. */
export interface RunEventEnvelope {
  version: 'v2';
  event_id: string;
  run_id: string;
  trace_id: string;
  created_at: number;
  session_id?: string;
  parent_run_id?: string;
  cycle_index?: number;
  agent_name?: string;
  metadata?: Record<string, unknown>;
}

/** What started a compaction: the 80 % rule before a model call, or a host request. */
export type CompactionTrigger = 'auto' | 'manual';

interface StreamedToolCallFields {
  tool_call_id: string;
  tool_name: string;
  cycle_index: number;
  tool_call_index?: number;
  arguments_chars?: number;
  estimated_tokens?: number;
}

interface TerminalOptionalFields {
  completion_reason?: CompletionReason;
  completion_tool_name?: string;
  partial_output?: string;
  budget_usage?: Record<string, unknown>;
  budget_exhaustion?: Record<string, unknown>;
}

export type RunEventPayload =
  | { type: 'run_started'; input: string }
  | { type: 'agent_started' }
  | { type: 'cycle_started'; cycle_index: number }
  | { type: 'steer_applied'; steer_id: string; input: string; cycle_index: number }
  | ({ type: 'model_call_started' } & ModelCallIdentity)
  | {
      type: 'assistant_delta';
      delta: string;
      cycle_index: number;
      content_chars?: number;
      estimated_tokens?: number;
    }
  | {
      type: 'reasoning_delta';
      delta: string;
      cycle_index: number;
      reasoning_chars?: number;
      estimated_tokens?: number;
    }
  | ({ type: 'model_tool_call_started' } & StreamedToolCallFields)
  | ({ type: 'model_tool_call_progress' } & StreamedToolCallFields)
  | ({ type: 'model_call_completed'; usage: TokenUsage } & ModelCallIdentity)
  | ({
      type: 'model_call_failed';
      usage: TokenUsage;
      outcome: 'definitive' | 'ambiguous';
      error_code: string;
    } & ModelCallIdentity)
  | {
      type: 'tool_call_planned';
      tool_call_id: string;
      tool_name: string;
      arguments: Record<string, unknown>;
      tool_metadata?: ToolMetadata;
    }
  | {
      type: 'approval_requested';
      request_id: string;
      tool_call_id: string;
      tool_name: string;
      message: string;
      /** docs/spec/sandbox.md §4: where the call would run (sandboxed tools only). */
      sandbox?: SandboxReport;
    }
  | { type: 'approval_resolved'; request_id: string; tool_call_id: string; tool_name: string; action: string }
  | {
      type: 'tool_call_started';
      tool_call_id: string;
      tool_name: string;
      arguments: Record<string, unknown>;
      tool_metadata?: ToolMetadata;
    }
  | {
      type: 'tool_call_completed';
      tool_call_id: string;
      tool_name: string;
      status: ToolStatus;
      directive: ToolDirective;
      error_code: string | null;
      execution_started: boolean;
      duration_ms: number | null;
      tool_metadata?: ToolMetadata;
      output_preview?: string;
      output_truncated?: boolean;
      /** docs/spec/sandbox.md §4: the boundary the call ran in. */
      sandbox?: SandboxReport;
    }
  | {
      type: 'diagnostic';
      level: 'debug' | 'info' | 'warning' | 'error';
      code: string;
      details: Record<string, unknown>;
    }
  | { type: 'context_compaction_started'; trigger: CompactionTrigger }
  | {
      type: 'context_compaction_completed';
      trigger: CompactionTrigger;
      /** Non-system messages of the conversation before and after. */
      messages_before: number;
      messages_after: number;
      estimated_tokens_before: number;
      estimated_tokens_after: number;
      /** Absent when skipped. */
      summary?: string;
      /** `true` when there was nothing to compact (manual, fewer than 2 user messages). */
      skipped?: boolean;
      /**
       * The compacted conversation (non-system messages: the summary message, then the kept ones);
       * absent when skipped. A host that stores the conversation replaces it with this.
       */
      history?: Message[];
    }
  | {
      type: 'context_compaction_failed';
      trigger: CompactionTrigger;
      error: string;
      /** `true` when the run was cancelled during the compaction; the history is unchanged. */
      interrupted?: boolean;
    }
  | { type: 'session_persisted' }
  | { type: 'budget_snapshot'; enforcement_boundary: string; budget_usage: Record<string, unknown> }
  | {
      type: 'budget_exhausted';
      enforcement_boundary: string;
      budget_usage: Record<string, unknown>;
      budget_exhaustion: Record<string, unknown>;
    }
  | ({
      type: 'run_completed';
      status: 'completed' | 'wait_user';
      final_output: string | null;
    } & TerminalOptionalFields)
  | ({ type: 'run_failed'; error: string; status?: string } & TerminalOptionalFields)
  | ({ type: 'run_cancelled'; reason: string } & TerminalOptionalFields);

export type RunEventType = RunEventPayload['type'];

/** One event as journaled, stored and iterated. */
export type RunEvent = RunEventEnvelope & RunEventPayload;

/** Narrow helper: the event of a given type. */
export type RunEventOf<T extends RunEventType> = RunEventEnvelope & Extract<RunEventPayload, { type: T }>;

export const TERMINAL_EVENT_TYPES: readonly RunEventType[] = ['run_completed', 'run_failed', 'run_cancelled'];
