/** The RunEvent v2 field catalog (docs/spec/runtime.md §6.1, §6.2): one table read by the strict reader. */
import type { RunEventType } from './types';

export type FieldKind =
  | 'string'
  | 'nonBlankString'
  | 'positiveInteger'
  | 'nonNegativeInteger'
  | 'boolean'
  | 'object'
  | 'stringOrNull'
  | 'durationOrNull'
  | 'createdAt'
  | 'completionReason'
  | 'toolMetadata'
  | 'messageList'
  | { oneOf: readonly string[] };

export type FieldTable = Readonly<Record<string, FieldKind>>;

export interface EventShape {
  required: FieldTable;
  optional: FieldTable;
}

/** `version` is checked on its own; these are the other envelope fields. */
export const ENVELOPE_REQUIRED: FieldTable = {
  event_id: 'nonBlankString',
  run_id: 'nonBlankString',
  trace_id: 'nonBlankString',
  created_at: 'createdAt',
};

export const ENVELOPE_OPTIONAL: FieldTable = {
  session_id: 'string',
  parent_run_id: 'string',
  cycle_index: 'positiveInteger',
  agent_name: 'string',
  metadata: 'object',
};

const MODEL_CALL: FieldTable = {
  call_id: 'nonBlankString',
  operation_id: 'nonBlankString',
  attempt: 'positiveInteger',
  operation: 'nonBlankString',
  cycle_index: 'positiveInteger',
  backend: 'string',
  model: 'string',
};

const STREAMED_TOOL_CALL: EventShape = {
  required: { tool_call_id: 'string', tool_name: 'string', cycle_index: 'positiveInteger' },
  optional: {
    tool_call_index: 'nonNegativeInteger',
    arguments_chars: 'nonNegativeInteger',
    estimated_tokens: 'nonNegativeInteger',
  },
};

const TOOL_CALL_WITH_ARGUMENTS: EventShape = {
  required: { tool_call_id: 'string', tool_name: 'string', arguments: 'object' },
  optional: { tool_metadata: 'toolMetadata' },
};

const BUDGET_FIELDS: FieldTable = { budget_usage: 'object', budget_exhaustion: 'object' };

const COMPACTION_TRIGGER: FieldKind = { oneOf: ['auto', 'manual'] };

const TOOL_STATUSES = ['success', 'error', 'wait_response', 'running', 'pending_compress'];

export const EVENT_SHAPES: Readonly<Record<RunEventType, EventShape>> = {
  run_started: { required: { input: 'string' }, optional: {} },
  agent_started: { required: {}, optional: {} },
  cycle_started: { required: { cycle_index: 'positiveInteger' }, optional: {} },
  steer_applied: {
    required: { steer_id: 'nonBlankString', input: 'string', cycle_index: 'positiveInteger' },
    optional: {},
  },
  model_call_started: { required: MODEL_CALL, optional: {} },
  assistant_delta: {
    required: { delta: 'string', cycle_index: 'positiveInteger' },
    optional: { content_chars: 'nonNegativeInteger', estimated_tokens: 'nonNegativeInteger' },
  },
  reasoning_delta: {
    required: { delta: 'string', cycle_index: 'positiveInteger' },
    optional: { reasoning_chars: 'nonNegativeInteger', estimated_tokens: 'nonNegativeInteger' },
  },
  model_tool_call_started: STREAMED_TOOL_CALL,
  model_tool_call_progress: STREAMED_TOOL_CALL,
  model_call_completed: { required: { ...MODEL_CALL, usage: 'object' }, optional: {} },
  model_call_failed: {
    required: {
      ...MODEL_CALL,
      usage: 'object',
      outcome: { oneOf: ['definitive', 'ambiguous'] },
      error_code: 'nonBlankString',
    },
    optional: {},
  },
  tool_call_planned: TOOL_CALL_WITH_ARGUMENTS,
  approval_requested: {
    required: {
      request_id: 'nonBlankString',
      tool_call_id: 'string',
      tool_name: 'string',
      message: 'string',
    },
    optional: { sandbox: 'object' },
  },
  approval_resolved: {
    required: {
      request_id: 'nonBlankString',
      tool_call_id: 'string',
      tool_name: 'string',
      action: { oneOf: ['allow', 'allow_session', 'deny', 'timeout'] },
    },
    optional: {},
  },
  tool_call_started: TOOL_CALL_WITH_ARGUMENTS,
  tool_call_completed: {
    required: {
      tool_call_id: 'string',
      tool_name: 'string',
      status: { oneOf: TOOL_STATUSES },
      directive: { oneOf: ['continue', 'finish', 'wait_user'] },
      error_code: 'stringOrNull',
      execution_started: 'boolean',
      duration_ms: 'durationOrNull',
    },
    optional: {
      tool_metadata: 'toolMetadata',
      output_preview: 'string',
      output_truncated: 'boolean',
      sandbox: 'object',
    },
  },
  diagnostic: {
    required: {
      level: { oneOf: ['debug', 'info', 'warning', 'error'] },
      code: 'nonBlankString',
      details: 'object',
    },
    optional: {},
  },
  context_compaction_started: { required: { trigger: COMPACTION_TRIGGER }, optional: {} },
  context_compaction_completed: {
    required: {
      trigger: COMPACTION_TRIGGER,
      messages_before: 'nonNegativeInteger',
      messages_after: 'nonNegativeInteger',
      estimated_tokens_before: 'nonNegativeInteger',
      estimated_tokens_after: 'nonNegativeInteger',
    },
    optional: { summary: 'string', skipped: 'boolean', history: 'messageList' },
  },
  context_compaction_failed: {
    required: { trigger: COMPACTION_TRIGGER, error: 'string' },
    optional: { interrupted: 'boolean' },
  },
  session_persisted: { required: {}, optional: {} },
  budget_snapshot: { required: { enforcement_boundary: 'string', budget_usage: 'object' }, optional: {} },
  budget_exhausted: {
    required: { enforcement_boundary: 'string', budget_usage: 'object', budget_exhaustion: 'object' },
    optional: {},
  },
  run_completed: {
    required: { status: { oneOf: ['completed', 'wait_user'] }, final_output: 'stringOrNull' },
    optional: {
      completion_reason: 'completionReason',
      completion_tool_name: 'string',
      partial_output: 'string',
      ...BUDGET_FIELDS,
    },
  },
  run_failed: {
    required: { error: 'string' },
    optional: {
      status: 'string',
      completion_reason: 'completionReason',
      completion_tool_name: 'string',
      partial_output: 'string',
      ...BUDGET_FIELDS,
    },
  },
  run_cancelled: {
    required: { reason: 'string' },
    optional: { completion_reason: 'completionReason', partial_output: 'string', ...BUDGET_FIELDS },
  },
};
