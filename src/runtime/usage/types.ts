/** Token usage wire objects (docs/spec/runtime.md §12). Unknown counts are null, never 0. */

export type UsageSource = 'provider_reported' | 'estimated' | 'accounting_missing';
export type CacheStatus = 'provider_reported' | 'accounting_missing' | 'unsupported';

interface CacheCounts {
  status: CacheStatus;
  read_input_tokens: number | null;
  write_input_tokens: number | null;
  uncached_input_tokens: number | null;
}

/** One model call's cache usage. */
export interface CacheUsage extends CacheCounts {
  source: 'provider_usage' | 'adapter_capability' | null;
}

/** The cache usage summed over a run's calls. */
export interface AggregateCacheUsage extends CacheCounts {
  source: 'aggregate';
}

/** `vv-agent.token-usage.v1`: one model call. */
export interface TokenUsage {
  schema_version: 'vv-agent.token-usage.v1';
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
  usage_source: UsageSource;
  cache_usage: CacheUsage;
  provider_usage: Record<string, unknown>;
}

/** `agent_cycle` for the cycle's own calls; `context_compaction` for a summary call (docs/spec/history.md §1). */
export type ModelCallOperation = 'agent_cycle' | 'context_compaction';

/**
 * Which model call, against which backend and model: the fields every `model_call_*` event
 * (docs/spec/runtime.md §6.2) and the call's ledger record (§12.3) carry alike.
 */
export interface ModelCallIdentity {
  call_id: string;
  operation_id: string;
  attempt: number;
  operation: ModelCallOperation;
  cycle_index: number;
  backend: string;
  model: string;
}

export type ModelCallStatus = 'completed' | 'failed' | 'ambiguous';

/** One model call in the run's ledger: its identity and how it ended. */
export interface ModelCallRecord extends ModelCallIdentity {
  status: ModelCallStatus;
  usage: TokenUsage;
  error_code: string | null;
}

/** `vv-agent.task-token-usage.v2`: the runtime-internal run ledger. */
export interface TaskTokenUsage {
  schema_version: 'vv-agent.task-token-usage.v2';
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
  cache_usage: AggregateCacheUsage;
  model_calls: ModelCallRecord[];
}

/** `vv-agent.task-token-usage.v1`: the protocol projection (docs/spec/runtime.md §12.4, docs/spec/protocol.md §5.7). */
export interface ProtocolTaskTokenUsage {
  schema_version: 'vv-agent.task-token-usage.v1';
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
  cache_usage: AggregateCacheUsage;
  cycles: Array<{ cycle_index: number; usage: TokenUsage }>;
}
