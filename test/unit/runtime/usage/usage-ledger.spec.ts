import { missingUsage, normalizeProviderUsage } from '../../../../src/runtime/usage/normalize';
import type { ModelCallRecord, TokenUsage } from '../../../../src/runtime/usage/types';
import {
  emptyProtocolTokenUsage,
  taskTokenUsage,
  toProtocolTokenUsage,
  UsageLedger,
} from '../../../../src/runtime/usage/usage-ledger';

function record(
  cycle: number,
  usage: TokenUsage,
  status: ModelCallRecord['status'] = 'completed',
): ModelCallRecord {
  const operationId = `op_model_cycle_${cycle}_main`;
  return {
    call_id: `${operationId}:attempt:1`,
    operation_id: operationId,
    attempt: 1,
    operation: 'agent_cycle',
    cycle_index: cycle,
    backend: 'moonshot',
    model: 'kimi-k3',
    status,
    usage,
    error_code: status === 'completed' ? null : 'model_request_failed',
  };
}

const cached = normalizeProviderUsage(
  {
    prompt_tokens: 905,
    completion_tokens: 41,
    total_tokens: 946,
    prompt_tokens_details: { cached_tokens: 0 },
  },
  'openai',
);
const uncachedAccounting = normalizeProviderUsage(
  { prompt_tokens: 1010, completion_tokens: 29, total_tokens: 1039 },
  'openai',
);
const cachedHit = normalizeProviderUsage(
  {
    prompt_tokens: 100,
    completion_tokens: 10,
    total_tokens: 110,
    prompt_tokens_details: { cached_tokens: 60 },
  },
  'openai',
);

describe('usage ledger (§12.3, §12.4)', () => {
  it('an empty ledger: counts 0, cache accounting_missing with null counts', () => {
    expect(taskTokenUsage([])).toEqual({
      schema_version: 'vv-agent.task-token-usage.v2',
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      reasoning_tokens: 0,
      cache_usage: {
        status: 'accounting_missing',
        read_input_tokens: null,
        write_input_tokens: null,
        uncached_input_tokens: null,
        source: 'aggregate',
      },
      model_calls: [],
    });
  });

  it('sums counts only when every record has them; null reasoning stays null', () => {
    const ledger = taskTokenUsage([record(1, cached), record(2, uncachedAccounting)]);
    expect(ledger).toMatchObject({
      input_tokens: 1915,
      output_tokens: 70,
      total_tokens: 1985,
      reasoning_tokens: null,
      cache_usage: {
        status: 'accounting_missing',
        read_input_tokens: null,
        write_input_tokens: null,
        uncached_input_tokens: null,
        source: 'aggregate',
      },
    });
  });

  it('an observed zero cache read stays 0 and sums with other provider-reported records', () => {
    const ledger = taskTokenUsage([record(1, cached), record(2, cachedHit)]);
    expect(ledger.cache_usage).toEqual({
      status: 'provider_reported',
      read_input_tokens: 60,
      write_input_tokens: null,
      uncached_input_tokens: 945,
      source: 'aggregate',
    });
  });

  it('a failed call (all null) makes every aggregate count unknown', () => {
    const ledger = taskTokenUsage([record(1, cached), record(2, missingUsage(), 'ambiguous')]);
    expect([ledger.input_tokens, ledger.output_tokens, ledger.total_tokens]).toEqual([null, null, null]);
    expect(ledger.cache_usage.status).toBe('accounting_missing');
  });

  it('unsupported when every record is unsupported', () => {
    const unsupported: TokenUsage = {
      ...uncachedAccounting,
      cache_usage: { ...uncachedAccounting.cache_usage, status: 'unsupported', source: 'adapter_capability' },
    };
    expect(taskTokenUsage([record(1, unsupported), record(2, unsupported)]).cache_usage.status).toBe(
      'unsupported',
    );
  });

  it('the ledger class records in dispatch order and snapshots independent copies', () => {
    const ledger = new UsageLedger();
    ledger.record(record(1, cached));
    const first = ledger.snapshot();
    ledger.record(record(1, cachedHit));
    expect(first.model_calls).toHaveLength(1);
    expect(ledger.snapshot().model_calls.map((call) => call.usage.input_tokens)).toEqual([905, 100]);
  });

  it('projects to task-token-usage v1 with one cycle entry per model call', () => {
    const ledger = taskTokenUsage([record(1, cached), record(1, cachedHit), record(2, uncachedAccounting)]);
    const projected = toProtocolTokenUsage(ledger);
    expect(projected).toMatchObject({
      schema_version: 'vv-agent.task-token-usage.v1',
      input_tokens: ledger.input_tokens,
      cache_usage: ledger.cache_usage,
    });
    expect(projected).not.toHaveProperty('model_calls');
    expect(projected.cycles.map((cycle) => cycle.cycle_index)).toEqual([1, 1, 2]);
    expect(projected.cycles[0].usage).toEqual(cached);
  });

  it('the empty projection for rejected runs', () => {
    expect(emptyProtocolTokenUsage()).toEqual({
      schema_version: 'vv-agent.task-token-usage.v1',
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      reasoning_tokens: 0,
      cache_usage: {
        status: 'accounting_missing',
        read_input_tokens: null,
        write_input_tokens: null,
        uncached_input_tokens: null,
        source: 'aggregate',
      },
      cycles: [],
    });
  });
});
