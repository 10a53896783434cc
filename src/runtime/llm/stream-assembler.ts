/**
 * Pure assembly of chat-completion stream chunks into one response (docs/spec/runtime.md §14.3). Fragments
 * are reported to the callbacks as they are accepted; `finish()` returns the assembled result.
 */
import type { StreamCallbacks, ToolCall } from '../model/types';
import { causeMessage } from '../cause-message';

type JsonObject = Record<string, unknown>;

/** Why a stream attempt failed while being read; `status` is a provider-given HTTP-like code. */
/**
 * A stream the client cannot use: `provider` when the provider sent an `{"error":…}` payload (it
 * reported its own failure, like an HTTP error), `malformed` when a chunk is not a JSON object at all
 * (the endpoint speaks something else).
 */
export class StreamChunkError extends Error {
  constructor(
    message: string,
    readonly origin: 'provider' | 'malformed',
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'StreamChunkError';
  }
}

export interface AssembledStream {
  content: string;
  /** Absent when no reasoning arrived. */
  reasoningContent?: string;
  toolCalls: ToolCall[];
  finishReason?: string;
  /** The last non-null usage object, untouched; `null` when the stream carried none. */
  usage: JsonObject | null;
  /** Characters of content, reasoning and tool-call names and arguments (for the usage estimate). */
  outputChars: number;
}

interface ToolCallState {
  /** Provider index, else the position in first-seen order. */
  index: number;
  id: string | null;
  name: string | null;
  arguments: string[];
  argumentsChars: number;
  named: boolean;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A status-like code in a provider error object (`code: 429`, `status: "503"`). */
function statusOf(error: JsonObject): number | null {
  for (const candidate of [error.code, error.status]) {
    const n = typeof candidate === 'string' && /^\d{3}$/.test(candidate) ? Number(candidate) : candidate;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599) return n;
  }
  return null;
}

function providerError(error: unknown): StreamChunkError {
  if (isObject(error)) {
    const message = nonEmptyString(error.message) ?? JSON.stringify(error);
    return new StreamChunkError(message, 'provider', statusOf(error));
  }
  return new StreamChunkError(typeof error === 'string' ? error : JSON.stringify(error), 'provider');
}

export class StreamAssembler {
  private readonly content: string[] = [];
  private readonly reasoning: string[] = [];
  private readonly calls = new Map<string, ToolCallState>();
  /** Calls in first-seen order. */
  private readonly order: ToolCallState[] = [];
  private finishReason: string | undefined;
  private usage: JsonObject | null = null;
  private outputChars = 0;
  private delivered = false;

  constructor(private readonly callbacks: StreamCallbacks) {}

  /** True once any content, reasoning or tool-call fragment reached the callbacks. */
  get deliveredOutput(): boolean {
    return this.delivered;
  }

  /** True once a chunk carried a `finish_reason`. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** One SSE `data` payload. Throws `StreamChunkError` for invalid JSON or an error payload. */
  acceptPayload(payload: string): void {
    let chunk: unknown;
    try {
      chunk = JSON.parse(payload);
    } catch (error) {
      throw new StreamChunkError(`invalid stream chunk: ${causeMessage(error)}`, 'malformed');
    }
    this.acceptChunk(chunk);
  }

  /**
   * One parsed chunk. A non-streamed completion body is accepted too: `choices[0].message` stands
   * in for `delta`.
   */
  acceptChunk(chunk: unknown): void {
    if (!isObject(chunk))
      throw new StreamChunkError('invalid stream chunk: expected a JSON object', 'malformed');
    if (chunk.error !== undefined && chunk.error !== null) throw providerError(chunk.error);

    const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : null;
    if (choice) {
      const delta = isObject(choice.delta) ? choice.delta : isObject(choice.message) ? choice.message : null;
      if (delta) this.acceptDelta(delta);
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
      // Some providers (Moonshot) put usage inside the choice; the top-level object wins.
      if (isObject(choice.usage)) this.usage = choice.usage;
    }
    if (isObject(chunk.usage)) this.usage = chunk.usage;
  }

  finish(): AssembledStream {
    const toolCalls: ToolCall[] = [];
    for (const call of this.order) {
      if (call.name === null) continue;
      toolCalls.push({
        id: call.id ?? `call_stream_${call.index}`,
        type: 'function',
        function: { name: call.name, arguments: call.arguments.join('') },
      });
    }
    const reasoning = this.reasoning.join('');
    return {
      content: this.content.join(''),
      ...(reasoning !== '' ? { reasoningContent: reasoning } : {}),
      toolCalls,
      ...(this.finishReason !== undefined ? { finishReason: this.finishReason } : {}),
      usage: this.usage,
      outputChars: this.outputChars,
    };
  }

  private acceptDelta(delta: JsonObject): void {
    const reasoning = nonEmptyString(delta.reasoning_content) ?? nonEmptyString(delta.reasoning);
    if (reasoning !== null) {
      this.reasoning.push(reasoning);
      this.outputChars += reasoning.length;
      this.delivered = true;
      this.callbacks.onReasoning(reasoning);
    }
    const content = nonEmptyString(delta.content);
    if (content !== null) {
      this.content.push(content);
      this.outputChars += content.length;
      this.delivered = true;
      this.callbacks.onContent(content);
    }
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((fragment: unknown, position: number) => {
        if (isObject(fragment)) this.acceptToolCallFragment(fragment, position);
      });
    }
  }

  private callFor(fragment: JsonObject, position: number): ToolCallState {
    const providerIndex =
      typeof fragment.index === 'number' && Number.isInteger(fragment.index) ? fragment.index : null;
    const id = nonEmptyString(fragment.id);
    let key: string;
    if (providerIndex !== null) key = `index:${providerIndex}`;
    else if (id !== null) key = `id:${id}`;
    else {
      // Neither index nor id: continue the call at this arrival position, if there is one.
      const existing = this.order[position];
      if (existing) return existing;
      key = `position:${position}`;
    }
    let call = this.calls.get(key);
    if (!call) {
      call = {
        index: providerIndex ?? this.order.length,
        id: null,
        name: null,
        arguments: [],
        argumentsChars: 0,
        named: false,
      };
      this.calls.set(key, call);
      this.order.push(call);
    }
    return call;
  }

  private acceptToolCallFragment(fragment: JsonObject, position: number): void {
    const call = this.callFor(fragment, position);
    const fn = isObject(fragment.function) ? fragment.function : {};
    const id = nonEmptyString(fragment.id);
    if (call.id === null && id !== null) call.id = id;
    const name = nonEmptyString(fn.name);
    if (name !== null) call.name = name;

    const rawArguments = fn.arguments;
    const fragmentArguments =
      typeof rawArguments === 'string'
        ? rawArguments
        : rawArguments === undefined || rawArguments === null
          ? ''
          : JSON.stringify(rawArguments);
    if (fragmentArguments !== '') {
      call.arguments.push(fragmentArguments);
      call.argumentsChars += fragmentArguments.length;
      this.outputChars += fragmentArguments.length;
    }

    if (!call.named && call.name !== null) {
      call.named = true;
      this.outputChars += call.name.length;
      this.delivered = true;
      const toolCallId = call.id ?? `call_stream_${call.index}`;
      this.callbacks.onToolCallNamed({ toolCallId, toolName: call.name, index: call.index });
      // Arguments that arrived before the name are reported in one piece now.
      const earlier = call.arguments.join('');
      if (earlier !== '') this.reportArguments(call, earlier);
    } else if (call.named && fragmentArguments !== '') {
      this.reportArguments(call, fragmentArguments);
    }
  }

  private reportArguments(call: ToolCallState, fragment: string): void {
    this.delivered = true;
    this.callbacks.onToolCallArguments({
      toolCallId: call.id ?? `call_stream_${call.index}`,
      toolName: call.name ?? '',
      index: call.index,
      fragment,
      argumentsChars: call.argumentsChars,
    });
  }
}
