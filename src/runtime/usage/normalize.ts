/** Normalization of raw provider usage into `TokenUsage` v1 (docs/spec/runtime.md §12.1, §12.2). */
import type { CacheUsage, TokenUsage } from './types';

type Raw = Record<string, unknown>;

/** Non-negative integers, integral floats and numeric strings count; anything else is absent. */
function count(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 && Number.isInteger(value) ? value : null;
  }
  if (typeof value === 'string' && /^\s*\d+(\.0*)?\s*$/.test(value)) {
    return Number.parseInt(value, 10);
  }
  return null;
}

function child(raw: Raw, key: string): Raw {
  const value = raw[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : {};
}

function firstCount(candidates: unknown[]): number | null {
  for (const candidate of candidates) {
    const n = count(candidate);
    if (n !== null) return n;
  }
  return null;
}

function has(raw: Raw, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(raw, key);
}

const MISSING_CACHE: CacheUsage = {
  status: 'accounting_missing',
  read_input_tokens: null,
  write_input_tokens: null,
  uncached_input_tokens: null,
  source: null,
};

/** All counts null, `accounting_missing`, `provider_usage: {}` (failed calls, scripted steps without usage). */
export function missingUsage(): TokenUsage {
  return {
    schema_version: 'vv-agent.token-usage.v1',
    input_tokens: null,
    output_tokens: null,
    total_tokens: null,
    reasoning_tokens: null,
    usage_source: 'accounting_missing',
    cache_usage: { ...MISSING_CACHE },
    provider_usage: {},
  };
}

/** The client's estimate when the stream carried no usage: ceil(chars / 4). */
export function estimatedUsage(requestChars: number, responseChars: number): TokenUsage {
  const input = Math.ceil(requestChars / 4);
  const output = Math.ceil(responseChars / 4);
  return {
    ...missingUsage(),
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    usage_source: 'estimated',
  };
}

/** Normalizes a provider usage object received from `backend`; `provider_usage` keeps it untouched. */
export function normalizeProviderUsage(raw: Raw, backend: string): TokenUsage {
  const promptDetails = child(raw, 'prompt_tokens_details');
  const inputDetails = child(raw, 'input_tokens_details');
  const completionDetails = child(raw, 'completion_tokens_details');
  const outputDetails = child(raw, 'output_tokens_details');

  let input = firstCount([raw.input_tokens, raw.prompt_tokens]);
  const output = firstCount([raw.output_tokens, raw.completion_tokens]);
  const reasoning = firstCount([
    completionDetails.reasoning_tokens,
    outputDetails.reasoning_tokens,
    raw.reasoning_tokens,
  ]);
  const read = firstCount([
    raw.cache_read_input_tokens,
    raw.cache_read_tokens,
    promptDetails.cached_tokens,
    inputDetails.cached_tokens,
  ]);
  const write = firstCount([
    raw.cache_write_input_tokens,
    raw.cache_creation_input_tokens,
    raw.cache_write_tokens,
    inputDetails.cache_creation_tokens,
    promptDetails.cache_creation_tokens,
  ]);
  let uncached = count(raw.uncached_input_tokens);

  const anthropicShape =
    !has(raw, 'prompt_tokens') &&
    !has(raw, 'total_tokens') &&
    !has(raw, 'uncached_input_tokens') &&
    (read !== null || write !== null);
  if (anthropicShape && input !== null) {
    const native = input;
    input = native + (read ?? 0) + (write ?? 0);
    uncached = native + (write ?? 0);
  }

  const total = count(raw.total_tokens) ?? (input !== null && output !== null ? input + output : null);

  let cache: CacheUsage;
  if (read !== null || write !== null || uncached !== null) {
    cache = {
      status: 'provider_reported',
      read_input_tokens: read,
      write_input_tokens: write,
      uncached_input_tokens: uncached ?? (input !== null && read !== null ? Math.max(0, input - read) : null),
      source: 'provider_usage',
    };
  } else if (backend === 'moonshot') {
    cache = {
      status: 'provider_reported',
      read_input_tokens: 0,
      write_input_tokens: null,
      uncached_input_tokens: input,
      source: 'provider_usage',
    };
  } else {
    cache = { ...MISSING_CACHE };
  }

  return {
    schema_version: 'vv-agent.token-usage.v1',
    input_tokens: input,
    output_tokens: output,
    total_tokens: total,
    reasoning_tokens: reasoning,
    usage_source: 'provider_reported',
    cache_usage: cache,
    provider_usage: raw,
  };
}
