/**
 * `OpenAiCompatibleClient`: streaming chat completions with per-attempt timeout, cancellation,
 * retries and endpoint failover (docs/spec/runtime.md §14).
 */
import type {
  EndpointOption,
  LlmClient,
  LlmRequest,
  LlmResponse,
  ResolvedModelConfig,
  StreamCallbacks,
} from '../model/types';
import { LlmError } from '../model/types';
import { estimatedUsage, normalizeProviderUsage } from '../usage/normalize';
import { AttemptFailure, actionFor, isPromptTooLong } from './attempt-failure';
import { ChatRequestBuildError, chatRequestJson } from './chat-request-builder';
import { postChatCompletions } from './chat-completions-transport';
import { consumerFor } from './completion-body-consumers';
import type { LlmSettings } from './llm-settings';
import { assertChatCompletionsEndpoints } from './model-resolution';
import { StreamAssembler, StreamChunkError } from './stream-assembler';
import { causeMessage } from '../cause-message';

/** Sleeps `ms`, rejecting early when `signal` aborts. */
export type RetrySleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface OpenAiCompatibleClientOptions {
  /** Per-attempt timeout when `ModelSettings.timeout_seconds` is not set (CLI `--timeout-seconds`); default 90. */
  timeoutSeconds?: number;
  /** Replaces the real sleep between retries (tests). */
  sleep?: RetrySleep;
  /** Longest `Retry-After` honoured; longer values are cut to it. Default 60. */
  maxRetryAfterSeconds?: number;
}

export const DEFAULT_TIMEOUT_SECONDS = 90;
const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_BACKOFF_SECONDS = 2;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;

const abortableSleep: RetrySleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new AttemptFailure('request cancelled', 'cancelled'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AttemptFailure('request cancelled', 'cancelled'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

type AttemptOutcome =
  { ok: true; response: LlmResponse } | { ok: false; failure: AttemptFailure; delivered: boolean };

function asAttemptFailure(error: unknown): AttemptFailure {
  if (error instanceof AttemptFailure) return error;
  if (error instanceof StreamChunkError) {
    const kind = error.origin === 'malformed' ? 'malformed' : 'stream';
    return new AttemptFailure(error.message, kind, error.status);
  }
  return new AttemptFailure(causeMessage(error), 'request');
}

/** API keys never leave the client in an error text. */
function redact(text: string, apiKey: string): string {
  return apiKey === '' ? text : text.split(apiKey).join('***');
}

function cancelledError(): LlmError {
  return new LlmError('llm request failed: request cancelled', 'model_request_cancelled');
}

function finalError(text: string): LlmError {
  const message = `llm request failed: ${text}`;
  return isPromptTooLong(text) ? new LlmError(message, 'prompt_too_long', true) : new LlmError(message);
}

export class OpenAiCompatibleClient implements LlmClient {
  private readonly timeoutSeconds: number;
  private readonly sleep: RetrySleep;
  private readonly maxRetryAfterMs: number;
  /** Endpoint id of the last successful request; tried first next time. */
  private lastSucceededEndpointId: string | null = null;

  constructor(options: OpenAiCompatibleClientOptions = {}) {
    this.timeoutSeconds = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    this.sleep = options.sleep ?? abortableSleep;
    this.maxRetryAfterMs = (options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS) * 1000;
  }

  async complete(request: LlmRequest, callbacks: StreamCallbacks, signal: AbortSignal): Promise<LlmResponse> {
    if (signal.aborted) throw cancelledError();
    const options = this.orderedOptions(request.model.endpoint_options);
    if (options.length === 0) {
      throw new LlmError(`llm request failed: model ${request.model.model_id} has no endpoint targets`);
    }
    const maxAttempts = request.settings.retry?.max_attempts ?? DEFAULT_MAX_ATTEMPTS;
    const backoffMs = (request.settings.retry?.backoff_seconds ?? DEFAULT_BACKOFF_SECONDS) * 1000;
    const timeoutMs = (request.settings.timeout_seconds ?? this.timeoutSeconds) * 1000;

    const endpointFailures: string[] = [];
    for (const option of options) {
      const apiKey = option.endpoint.api_key;
      let body: string;
      let url: URL;
      try {
        body = chatRequestJson(request, option);
        url = new URL(`${option.endpoint.api_base.replace(/\/+$/, '')}/chat/completions`);
      } catch (error) {
        const text =
          error instanceof ChatRequestBuildError ? error.message : this.describeBuildError(option, error);
        throw finalError(redact(text, apiKey));
      }

      for (let attempt = 1; ; attempt += 1) {
        const outcome = await this.attempt(request, callbacks, signal, { url, apiKey, body, timeoutMs });
        if (outcome.ok) {
          this.lastSucceededEndpointId = option.endpoint.id;
          return outcome.response;
        }
        const { failure, delivered } = outcome;
        if (failure.kind === 'cancelled' || signal.aborted) throw cancelledError();
        const text = redact(failure.message, apiKey);
        // Partial output already reached the user: a retry would duplicate it.
        if (delivered || isPromptTooLong(text)) throw finalError(text);
        const action = actionFor(failure);
        if (action === 'abort') throw finalError(text);
        if (action === 'retry' && attempt < maxAttempts) {
          await this.pause(this.retryDelayMs(failure, backoffMs, attempt), signal);
          continue;
        }
        endpointFailures.push(`${option.endpoint.id}: ${text} (attempt ${attempt})`);
        break;
      }
    }
    throw new LlmError(`llm request failed: all endpoint targets failed: ${endpointFailures.join('; ')}`);
  }

  private async attempt(
    request: LlmRequest,
    callbacks: StreamCallbacks,
    signal: AbortSignal,
    target: { url: URL; apiKey: string; body: string; timeoutMs: number },
  ): Promise<AttemptOutcome> {
    const assembler = new StreamAssembler(callbacks);
    try {
      await postChatCompletions({
        ...target,
        signal,
        consumerFor: (contentType) => consumerFor(contentType, assembler),
      });
    } catch (error) {
      return { ok: false, failure: asAttemptFailure(error), delivered: assembler.deliveredOutput };
    }
    const assembled = assembler.finish();
    const usage = assembled.usage
      ? normalizeProviderUsage(assembled.usage, request.model.backend)
      : estimatedUsage(target.body.length, assembled.outputChars);
    const response: LlmResponse = { content: assembled.content, toolCalls: assembled.toolCalls, usage };
    if (assembled.reasoningContent !== undefined) response.reasoningContent = assembled.reasoningContent;
    if (assembled.finishReason !== undefined) response.finishReason = assembled.finishReason;
    return { ok: true, response };
  }

  /** The endpoint that last succeeded first, then the others in binding order. */
  private orderedOptions(options: EndpointOption[]): EndpointOption[] {
    const preferred = options.findIndex((option) => option.endpoint.id === this.lastSucceededEndpointId);
    if (preferred <= 0) return options;
    return [options[preferred], ...options.slice(0, preferred), ...options.slice(preferred + 1)];
  }

  private retryDelayMs(failure: AttemptFailure, backoffMs: number, attempt: number): number {
    if (failure.retryAfterMs !== null) return Math.min(failure.retryAfterMs, this.maxRetryAfterMs);
    return backoffMs * attempt;
  }

  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await this.sleep(ms, signal);
    } catch {
      if (signal.aborted) throw cancelledError();
    }
    if (signal.aborted) throw cancelledError();
  }

  private describeBuildError(option: EndpointOption, error: unknown): string {
    if ((error as { code?: unknown } | null)?.code === 'ERR_INVALID_URL') {
      return `invalid api_base for endpoint ${option.endpoint.id}`;
    }
    return causeMessage(error);
  }
}

/**
 * Builds the client for a resolved model at startup. Throws `Responses endpoints are not
 * supported` when one of its endpoints is configured with `response_api: true`.
 */
export function createOpenAiCompatibleClient(
  settings: LlmSettings,
  resolved: ResolvedModelConfig,
  options: OpenAiCompatibleClientOptions = {},
): OpenAiCompatibleClient {
  assertChatCompletionsEndpoints(settings, resolved);
  return new OpenAiCompatibleClient(options);
}
