/** Model resolution and the LLM client seam (docs/spec/runtime.md §13.3, §13.4, §14). */
import type { Message, AssistantToolCall } from '../messages';
import type { TokenUsage } from '../usage/types';

export interface EndpointConfig {
  id: string;
  api_base: string;
  api_key: string;
}

export interface EndpointOption {
  endpoint: EndpointConfig;
  model_id: string;
}

/** `ResolvedModelConfig` (docs/spec/runtime.md §13.3 step 5). */
export interface ResolvedModelConfig {
  backend: string;
  requested_model: string;
  selected_model: string;
  model_id: string;
  display_name: string | null;
  context_length: number | null;
  max_output_tokens: number | null;
  function_call_available: boolean;
  response_format_available: boolean;
  native_multimodal: boolean;
  endpoint_options: EndpointOption[];
}

export type ModelRef =
  | { type: 'named'; model: string }
  | { type: 'backend_model'; backend: string; model: string }
  | { type: 'resolved'; config: ResolvedModelConfig };

export interface ModelProvider {
  /** Throws with the exact messages of docs/spec/runtime.md §13.4 / §15.1. */
  resolve(ref: ModelRef): ResolvedModelConfig;
  client(resolved: ResolvedModelConfig): LlmClient;
  defaultModelRef?(): ModelRef | undefined;
}

export type ToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

/** docs/spec/runtime.md §14.2; unknown members are rejected by validation. */
export interface ModelSettings {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  timeout_seconds?: number;
  retry?: { max_attempts?: number; backoff_seconds?: number };
  extra_body?: Record<string, unknown>;
}

/** A tool as sent to the model: `{"type":"function","function":{name,description,parameters}}`. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmRequest {
  /** The resolved model this request is for (backend, model_id, endpoint options). */
  model: ResolvedModelConfig;
  messages: Message[];
  tools: ToolSpec[];
  settings: ModelSettings;
}

/** A tool call as produced by the model, before decoding (docs/spec/runtime.md §9.5). */
export type ToolCall = AssistantToolCall;

export interface StreamCallbacks {
  /** A non-empty visible-text fragment. */
  onContent(fragment: string): void;
  onReasoning(fragment: string): void;
  /** First time a streamed tool call has a name. */
  onToolCallNamed(call: { toolCallId: string; toolName: string; index: number }): void;
  /** Each non-empty arguments fragment; `argumentsChars` is cumulative for that call. */
  onToolCallArguments(call: {
    toolCallId: string;
    toolName: string;
    index: number;
    fragment: string;
    argumentsChars: number;
  }): void;
}

export interface LlmResponse {
  content: string;
  toolCalls: ToolCall[];
  reasoningContent?: string;
  usage: TokenUsage;
  finishReason?: string;
}

/**
 * Error thrown by an LlmClient. `code` tells the runner how to label the failed model call
 * (docs/spec/runtime.md §12.3): `model_request_cancelled` when the signal aborted it, `prompt_too_long`,
 * or `model_request_failed`. `definitive` marks outcomes known not to have reached the model
 * (prompt too long, scripted queue exhaustion).
 */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly code:
      'model_request_cancelled' | 'prompt_too_long' | 'model_request_failed' = 'model_request_failed',
    readonly definitive = false,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface LlmClient {
  /**
   * Performs one model call. Must reject promptly with an LlmError(code 'model_request_cancelled')
   * when `signal` aborts. Error messages are final texts such as `llm request failed: …`.
   */
  complete(request: LlmRequest, callbacks: StreamCallbacks, signal: AbortSignal): Promise<LlmResponse>;
}
