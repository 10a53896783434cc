/**
 * Pure validation of a parsed settings document into `LlmSettings` (docs/spec/runtime.md §13.1, §13.2).
 * Messages of §13.1 are exact; the per-member messages below it are this module's own.
 */
import type {
  LlmBackendSettings,
  LlmEndpointSettings,
  LlmModelEndpointBinding,
  LlmModelSettings,
  LlmSettings,
} from './llm-settings';

type JsonObject = Record<string, unknown>;

function invalid(detail: string): Error {
  return new Error(`invalid LLM settings: ${detail}`);
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalString(value: unknown, fallback: string, what: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw invalid(`${what} must be a string`);
  return value;
}

function optionalNullableString(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${what} must be a string`);
  return value;
}

function optionalBoolean(value: unknown, fallback: boolean, what: string): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalid(`${what} must be a boolean`);
  return value;
}

function optionalInteger(value: unknown, what: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(`${what} must be an integer`);
  return value;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function apiKeyEnv(raw: JsonObject, id: string): string | null {
  const name = optionalNullableString(raw.api_key_env, `endpoint ${id}.api_key_env`);
  if (name === null) return null;
  if (!VARIABLE_NAME.test(name))
    throw invalid(`endpoint ${id}.api_key_env must be an environment variable name`);
  if (raw.api_key !== undefined) throw invalid(`endpoint ${id} sets both api_key and api_key_env`);
  return name;
}

function parseEndpoint(raw: unknown, index: number): LlmEndpointSettings {
  if (!isObject(raw)) throw invalid(`LLM_SETTINGS.endpoints[${index}] must be an object`);
  if (typeof raw.id !== 'string' || raw.id === '') {
    throw invalid(`LLM_SETTINGS.endpoints[${index}] is missing id`);
  }
  const id = raw.id;
  return {
    id,
    api_base: optionalString(raw.api_base, '', `endpoint ${id}.api_base`).replace(/\/+$/, ''),
    api_key: optionalString(raw.api_key, '', `endpoint ${id}.api_key`),
    api_key_env: apiKeyEnv(raw, id),
    enabled: optionalBoolean(raw.enabled, true, `endpoint ${id}.enabled`),
    endpoint_type: optionalString(raw.endpoint_type, 'default', `endpoint ${id}.endpoint_type`),
    response_api: optionalBoolean(raw.response_api, false, `endpoint ${id}.response_api`),
  };
}

function parseBinding(raw: unknown, modelKey: string, index: number): LlmModelEndpointBinding {
  if (typeof raw === 'string' && raw !== '') return { endpoint_id: raw, model_id: null, enabled: true };
  const what = `model ${modelKey}.endpoints[${index}]`;
  if (!isObject(raw) || typeof raw.endpoint_id !== 'string' || raw.endpoint_id === '') {
    throw invalid(`${what} must be an endpoint id or an object with endpoint_id`);
  }
  return {
    endpoint_id: raw.endpoint_id,
    model_id: optionalNullableString(raw.model_id, `${what}.model_id`),
    enabled: optionalBoolean(raw.enabled, true, `${what}.enabled`),
  };
}

function parseModel(key: string, raw: unknown): LlmModelSettings {
  if (!isObject(raw)) throw invalid(`model ${key} must be an object`);
  if (typeof raw.id !== 'string' || raw.id === '') throw invalid(`model ${key} is missing id`);
  const bindings = raw.endpoints ?? [];
  if (!Array.isArray(bindings)) throw invalid(`model ${key}.endpoints must be an array`);
  return {
    key,
    id: raw.id,
    display_name: optionalNullableString(raw.display_name, `model ${key}.display_name`),
    enabled: optionalBoolean(raw.enabled, true, `model ${key}.enabled`),
    endpoints: bindings.map((binding, index) => parseBinding(binding, key, index)),
    context_length: optionalInteger(raw.context_length, `model ${key}.context_length`),
    max_output_tokens: optionalInteger(raw.max_output_tokens, `model ${key}.max_output_tokens`),
    function_call_available: optionalBoolean(
      raw.function_call_available,
      false,
      `model ${key}.function_call_available`,
    ),
    response_format_available: optionalBoolean(
      raw.response_format_available,
      false,
      `model ${key}.response_format_available`,
    ),
    native_multimodal: optionalBoolean(raw.native_multimodal, false, `model ${key}.native_multimodal`),
  };
}

function parseBackend(name: string, raw: unknown): LlmBackendSettings {
  if (!isObject(raw)) throw invalid(`backend ${name} must be an object`);
  const models = raw.models ?? {};
  if (!isObject(models)) throw invalid(`backend ${name}.models must be an object`);
  return { models: new Map(Object.entries(models).map(([key, entry]) => [key, parseModel(key, entry)])) };
}

/** Throws `invalid LLM settings: …` for the first problem found, checking in the order of §13.1. */
export function parseLlmSettingsDocument(document: unknown): LlmSettings {
  if (!isObject(document)) throw invalid('LLM_SETTINGS must be an object');
  if (document.VERSION !== '2') throw invalid("LLM_SETTINGS.VERSION must be '2'");
  if (!isObject(document.backends)) throw invalid('LLM_SETTINGS.backends must be an object');
  if (!Array.isArray(document.endpoints)) throw invalid('LLM_SETTINGS.endpoints must be an array');
  // `embedding_backends` / `rerank_backends` and any other top-level members are ignored.
  const endpoints = document.endpoints.map(parseEndpoint);
  const backends = new Map(
    Object.entries(document.backends).map(([name, backend]) => [name, parseBackend(name, backend)]),
  );
  return { version: '2', endpoints, backends };
}
