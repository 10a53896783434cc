/** The run's token usage ledger (docs/spec/runtime.md §12.3) and its protocol projection (§12.4). */
import type {
  AggregateCacheUsage,
  CacheUsage,
  ModelCallRecord,
  ProtocolTaskTokenUsage,
  TaskTokenUsage,
  TokenUsage,
} from './types';

type CountKey = 'input_tokens' | 'output_tokens' | 'total_tokens' | 'reasoning_tokens';
type CacheCountKey = 'read_input_tokens' | 'write_input_tokens' | 'uncached_input_tokens';

/** Sum when every usage has the count (null is "unknown", never 0); 0 for no usages. */
function sumAll(values: Array<number | null>): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

function aggregateCache(usages: TokenUsage[]): AggregateCacheUsage {
  const statuses = usages.map((usage) => usage.cache_usage.status);
  const all = (status: CacheUsage['status']): boolean =>
    statuses.length > 0 && statuses.every((s) => s === status);
  const status: CacheUsage['status'] = all('provider_reported')
    ? 'provider_reported'
    : all('unsupported')
      ? 'unsupported'
      : 'accounting_missing';
  const cacheCount = (key: CacheCountKey): number | null =>
    status === 'provider_reported' ? sumAll(usages.map((usage) => usage.cache_usage[key])) : null;
  return {
    status,
    read_input_tokens: cacheCount('read_input_tokens'),
    write_input_tokens: cacheCount('write_input_tokens'),
    uncached_input_tokens: cacheCount('uncached_input_tokens'),
    source: 'aggregate',
  };
}

function aggregateCounts(usages: TokenUsage[]): Record<CountKey, number | null> {
  const count = (key: CountKey): number | null => sumAll(usages.map((usage) => usage[key]));
  return {
    input_tokens: count('input_tokens'),
    output_tokens: count('output_tokens'),
    total_tokens: count('total_tokens'),
    reasoning_tokens: count('reasoning_tokens'),
  };
}

/** The `vv-agent.task-token-usage.v2` object for these records (dispatch order). */
export function taskTokenUsage(records: readonly ModelCallRecord[]): TaskTokenUsage {
  const usages = records.map((record) => record.usage);
  return {
    schema_version: 'vv-agent.task-token-usage.v2',
    ...aggregateCounts(usages),
    cache_usage: aggregateCache(usages),
    model_calls: records.map((record) => structuredClone(record)),
  };
}

/** Appends one record per model request and snapshots the aggregates. */
export class UsageLedger {
  private readonly records: ModelCallRecord[] = [];

  record(record: ModelCallRecord): void {
    this.records.push(structuredClone(record));
  }

  snapshot(): TaskTokenUsage {
    return taskTokenUsage(this.records);
  }
}

/** The App Server's `tokenUsage` (`vv-agent.task-token-usage.v1`). */
export function toProtocolTokenUsage(ledger: TaskTokenUsage): ProtocolTaskTokenUsage {
  return {
    schema_version: 'vv-agent.task-token-usage.v1',
    input_tokens: ledger.input_tokens,
    output_tokens: ledger.output_tokens,
    total_tokens: ledger.total_tokens,
    reasoning_tokens: ledger.reasoning_tokens,
    cache_usage: { ...ledger.cache_usage },
    cycles: ledger.model_calls.map((call) => ({
      cycle_index: call.cycle_index,
      usage: structuredClone(call.usage),
    })),
  };
}

/** A rejected run (no ledger): counts 0, cache `accounting_missing` with null counts, no cycles. */
export function emptyProtocolTokenUsage(): ProtocolTaskTokenUsage {
  return toProtocolTokenUsage(taskTokenUsage([]));
}
