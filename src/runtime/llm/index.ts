/** Settings file, exact model resolution, the fixed provider and the OpenAI-compatible client (docs/spec/runtime.md §13, §14). */
export type {
  LlmBackendSettings,
  LlmEndpointSettings,
  LlmModelEndpointBinding,
  LlmModelSettings,
  LlmSettings,
} from './llm-settings';
export { loadLlmSettings } from './settings-loader';
export { parseLlmSettingsDocument } from './settings-document';
export { resolveModelEndpoint, assertChatCompletionsEndpoints } from './model-resolution';
export { FixedModelProvider } from './fixed-model-provider';
export { SseParser } from './sse-parser';
export { StreamAssembler, StreamChunkError } from './stream-assembler';
export type { AssembledStream } from './stream-assembler';
export { buildChatRequestBody, isReasoningChainModel, ChatRequestBuildError } from './chat-request-builder';
export { isPromptTooLong } from './attempt-failure';
export {
  OpenAiCompatibleClient,
  createOpenAiCompatibleClient,
  DEFAULT_TIMEOUT_SECONDS,
} from './openai-compatible-client';
export type { OpenAiCompatibleClientOptions, RetrySleep } from './openai-compatible-client';
