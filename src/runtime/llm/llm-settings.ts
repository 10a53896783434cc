/** The validated in-memory form of a VERSION "2" LLM settings file (docs/spec/runtime.md §13.2). */

export interface LlmEndpointSettings {
  id: string;
  /** Without trailing `/`. */
  api_base: string;
  /** As written: may hold `${NAME}` references, expanded when a model is resolved. */
  api_key: string;
  /** The variable holding the whole key, instead of `api_key`; null when not set. */
  api_key_env: string | null;
  enabled: boolean;
  /** Informational only. */
  endpoint_type: string;
  /** `true` makes client construction fail: only chat completions are spoken. */
  response_api: boolean;
}

export interface LlmModelEndpointBinding {
  endpoint_id: string;
  /** Provider model id for this endpoint; `null` means the model entry's `id`. */
  model_id: string | null;
  enabled: boolean;
}

export interface LlmModelSettings {
  /** The key of the entry in `backends[<backend>].models`. */
  key: string;
  id: string;
  display_name: string | null;
  enabled: boolean;
  endpoints: LlmModelEndpointBinding[];
  context_length: number | null;
  max_output_tokens: number | null;
  function_call_available: boolean;
  response_format_available: boolean;
  native_multimodal: boolean;
}

export interface LlmBackendSettings {
  /** Keyed by model key, in file order. */
  models: Map<string, LlmModelSettings>;
}

export interface LlmSettings {
  version: '2';
  endpoints: LlmEndpointSettings[];
  /** Keyed by backend key, in file order. */
  backends: Map<string, LlmBackendSettings>;
}
