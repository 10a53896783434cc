/** The scripted model: a FIFO of canned responses behind the ModelProvider seam (docs/spec/runtime.md §15.1, §15.2). */
import { missingUsage, normalizeProviderUsage } from '../usage/normalize';
import {
  LlmError,
  type LlmClient,
  type LlmRequest,
  type LlmResponse,
  type ModelProvider,
  type ModelRef,
  type ResolvedModelConfig,
  type StreamCallbacks,
} from './types';
import { causeMessage } from '../cause-message';

export interface ScriptToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptObjectStep {
  content?: string;
  tool_calls?: ScriptToolCall[];
  reasoning_content?: string;
  usage?: Record<string, unknown>;
  delay_ms?: number;
  /**
   * Streams the content as these fragments, `chunk_delay_ms` apart, instead of as one fragment —
   * so a demo turn visibly streams (docs/spec/inspector.md §1). `content` is then their join.
   */
  content_chunks?: string[];
  chunk_delay_ms?: number;
  error?: string;
}

export type ScriptStep =
  ScriptObjectStep | ((request: LlmRequest) => ScriptObjectStep | Promise<ScriptObjectStep>);

export const SCRIPTED_QUEUE_EMPTY = 'scripted response queue is empty';
const CANCELLED_MESSAGE = 'llm request cancelled';

/** `{content: message, tool_calls: [{id: "finish", name: "task_finish", arguments: {message}}]}`. */
export function finish(message: string): ScriptObjectStep {
  return { content: message, tool_calls: [{ id: 'finish', name: 'task_finish', arguments: { message } }] };
}

function cancelled(): LlmError {
  return new LlmError(CANCELLED_MESSAGE, 'model_request_cancelled');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One FIFO shared by every call, every run and every turn that uses this client. */
export class ScriptedLlmClient implements LlmClient {
  private readonly queue: ScriptStep[];

  constructor(steps: readonly ScriptStep[] = []) {
    this.queue = [...steps];
  }

  /** Appends steps to the end of the queue. */
  push(...steps: ScriptStep[]): void {
    this.queue.push(...steps);
  }

  get remaining(): number {
    return this.queue.length;
  }

  async complete(request: LlmRequest, callbacks: StreamCallbacks, signal: AbortSignal): Promise<LlmResponse> {
    if (signal.aborted) throw cancelled();
    const next = this.queue.shift();
    if (next === undefined) throw new LlmError(SCRIPTED_QUEUE_EMPTY, 'model_request_failed', true);
    let step: ScriptObjectStep;
    try {
      step = typeof next === 'function' ? await next(request) : next;
    } catch (error) {
      throw new LlmError(`llm request failed: ${causeMessage(error)}`);
    }
    if (step.delay_ms !== undefined && step.delay_ms > 0) await sleep(step.delay_ms, signal);
    if (signal.aborted) throw cancelled();
    if (step.error !== undefined) throw new LlmError(`llm request failed: ${step.error}`);

    const chunks = step.content_chunks ?? [step.content ?? ''];
    const content = chunks.join('');
    const reasoning = step.reasoning_content ?? '';
    if (reasoning !== '') callbacks.onReasoning(reasoning);
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0 && (step.chunk_delay_ms ?? 0) > 0) await sleep(step.chunk_delay_ms ?? 0, signal);
      if (chunk !== '') callbacks.onContent(chunk);
    }
    const toolCalls = step.tool_calls ?? [];
    return {
      content,
      toolCalls: toolCalls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
      })),
      ...(reasoning !== '' ? { reasoningContent: reasoning } : {}),
      usage: step.usage ? normalizeProviderUsage(step.usage, request.model.backend) : missingUsage(),
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    };
  }
}

export interface ScriptedModelProviderOptions {
  backend?: string;
  defaultModel?: string;
  steps?: readonly ScriptStep[];
}

export class ScriptedModelProvider implements ModelProvider {
  readonly backend: string;
  readonly defaultModel: string;
  private readonly scriptedClient: ScriptedLlmClient;

  constructor(options: ScriptedModelProviderOptions = {}) {
    this.backend = options.backend ?? 'scripted';
    this.defaultModel = options.defaultModel ?? 'demo-model';
    this.scriptedClient = new ScriptedLlmClient(options.steps ?? []);
  }

  /** Appends steps to the shared queue. */
  push(...steps: ScriptStep[]): void {
    this.scriptedClient.push(...steps);
  }

  get remaining(): number {
    return this.scriptedClient.remaining;
  }

  resolve(ref: ModelRef): ResolvedModelConfig {
    if (ref.type === 'resolved') return ref.config;
    if (ref.type === 'backend_model' && ref.backend !== this.backend) {
      throw new Error(`model backend mismatch: requested \`${ref.backend}\`, provider \`${this.backend}\``);
    }
    return {
      backend: this.backend,
      requested_model: ref.model,
      selected_model: ref.model,
      model_id: ref.model,
      display_name: null,
      context_length: 128000,
      max_output_tokens: 16384,
      function_call_available: true,
      response_format_available: true,
      native_multimodal: false,
      endpoint_options: [],
    };
  }

  client(_resolved: ResolvedModelConfig): LlmClient {
    return this.scriptedClient;
  }

  defaultModelRef(): ModelRef {
    return { type: 'named', model: this.defaultModel };
  }
}
