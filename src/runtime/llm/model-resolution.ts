/** Exact model resolution `resolveModelEndpoint(settings, backend, model)` (docs/spec/runtime.md §13.3). */
import type { EndpointOption, ResolvedModelConfig } from '../model/types';
import { endpointApiKey } from './endpoint-api-key';
import type { LlmEndpointSettings, LlmModelSettings, LlmSettings } from './llm-settings';

function invalid(detail: string): Error {
  return new Error(`invalid LLM settings: ${detail}`);
}

/** By key first, then by `id`; never by alias, prefix or similarity. */
function findModel(models: Map<string, LlmModelSettings>, model: string): LlmModelSettings | undefined {
  const byKey = models.get(model);
  if (byKey?.enabled) return byKey;
  for (const entry of models.values()) {
    if (entry.enabled && entry.id === model) return entry;
  }
  return undefined;
}

function enabledEndpoint(settings: LlmSettings, id: string): LlmEndpointSettings | undefined {
  const endpoint = settings.endpoints.find((candidate) => candidate.id === id);
  return endpoint?.enabled ? endpoint : undefined;
}

/**
 * Throws `invalid LLM settings: …` with the exact messages of §13.3, and `… endpoint <id>:
 * environment variable <NAME> is not set` when a used endpoint's key variable is missing.
 */
export function resolveModelEndpoint(
  settings: LlmSettings,
  backend: string,
  model: string,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedModelConfig {
  const backendSettings = settings.backends.get(backend);
  if (!backendSettings) throw invalid(`backend not found: ${backend}`);

  const entry = findModel(backendSettings.models, model);
  if (!entry) throw invalid(`model not found: backend=${backend} model=${model}`);

  const bindings = entry.endpoints.filter((binding) => binding.enabled);
  if (bindings.length === 0) {
    throw invalid(`configuration error: model ${model} has no enabled endpoints`);
  }
  const first = bindings[0];
  if (!enabledEndpoint(settings, first.endpoint_id))
    throw invalid(`endpoint not found: ${first.endpoint_id}`);

  const endpointOptions: EndpointOption[] = [];
  for (const binding of bindings) {
    const endpoint = enabledEndpoint(settings, binding.endpoint_id);
    if (!endpoint) continue;
    endpointOptions.push({
      endpoint: { id: endpoint.id, api_base: endpoint.api_base, api_key: endpointApiKey(endpoint, env) },
      model_id: binding.model_id ?? entry.id,
    });
  }

  return {
    backend,
    requested_model: model,
    selected_model: model,
    model_id: first.model_id ?? entry.id,
    display_name: entry.display_name,
    context_length: entry.context_length,
    max_output_tokens: entry.max_output_tokens,
    function_call_available: entry.function_call_available,
    response_format_available: entry.response_format_available,
    native_multimodal: entry.native_multimodal,
    endpoint_options: endpointOptions,
  };
}

/**
 * Endpoints of `resolved` that are configured for the Responses API, which this runtime does not
 * speak; a client build over them fails with `Responses endpoints are not supported`.
 */
export function assertChatCompletionsEndpoints(settings: LlmSettings, resolved: ResolvedModelConfig): void {
  for (const option of resolved.endpoint_options) {
    const endpoint = settings.endpoints.find((candidate) => candidate.id === option.endpoint.id);
    if (endpoint?.response_api) throw new Error('Responses endpoints are not supported');
  }
}
