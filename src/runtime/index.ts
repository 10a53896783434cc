/** Public exports of the vv-agent runtime. */
export { Agent, type AgentOptions } from './agent';
export { Runner, type RunnerOptions } from './runner';
export { newId } from './ids';

export type {
  RunConfig,
  RunResult,
  RunHandle,
  RunHandleState,
  RunHandleStatus,
  NoToolPolicy,
} from './run-config';
export type { RunStatus } from './run-outcome';
export type * from './messages';
export type * from './events/types';
export { COMPLETION_REASONS, TERMINAL_EVENT_TYPES } from './events/types';
export { parseRunEvent } from './events/run-event-reader';
export { SUMMARY_PREFIX, COMPACTION_INSTRUCTIONS } from './compaction/summary-request';
export { COMPACTION_TRIGGER_RATIO, estimatePromptTokens } from './compaction/prompt-estimate';
export { KEEP_RATIO, splitForCompaction } from './compaction/keep-rule';
export type { PromptSize } from './compaction/prompt-size-tracker';

export { LlmError } from './model/types';
export type {
  EndpointConfig,
  EndpointOption,
  ResolvedModelConfig,
  ModelRef,
  ModelProvider,
  ToolChoice,
  ModelSettings,
  ToolSpec,
  LlmRequest,
  ToolCall,
  StreamCallbacks,
  LlmResponse,
  LlmClient,
} from './model/types';
export { mergeModelSettings, validateModelSettings } from './model/model-settings';
export {
  ScriptedModelProvider,
  ScriptedLlmClient,
  finish,
  SCRIPTED_QUEUE_EMPTY,
  type ScriptStep,
  type ScriptObjectStep,
  type ScriptToolCall,
  type ScriptedModelProviderOptions,
} from './model/scripted-model';
export { loadScriptedModelFile, parseScriptedModelDocument } from './model/scripted-model-file';

export type * from './usage/types';
export { normalizeProviderUsage, missingUsage, estimatedUsage } from './usage/normalize';
export {
  UsageLedger,
  taskTokenUsage,
  toProtocolTokenUsage,
  emptyProtocolTokenUsage,
} from './usage/usage-ledger';

export type * from './tools/types';
export type { DynamicToolSource } from './tools/dynamic-tool-source';
export { BUILTIN_TOOL_NAMES } from './tools/types';
export { normalizeToolMetadata } from './tool-metadata/tool-metadata';

export type * from './approvals/types';
export { ApprovalBroker } from './approvals/approval-broker';
export { requiresApproval } from './approvals/approval-policy';

export { EventStoreError, type RunEventStore, type EventStoreErrorCode } from './events/run-event-store';
export { JsonlRunEventStore } from './event-store/jsonl-run-event-store';
export * from './llm';
