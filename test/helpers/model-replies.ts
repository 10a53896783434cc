/**
 * Streamed chat-completions replies for the fake model server (fake-openai-server.ts) in the shapes an
 * agent turn needs: assistant text, tool calls (streamed as a named fragment, then the arguments),
 * provider usage, and gates that pause a stream until the test releases it.
 */
import { chunks, type FakeReply, type StreamStep } from './fake-openai-server';

export interface PlannedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ReplyOptions {
  /** Assistant text fragments, streamed before the tool calls. */
  content?: string[];
  /** The usage-only chunk after the finish chunk. */
  usage?: Record<string, unknown>;
  /** Pauses the stream after the content (before the tool calls) until the promise settles. */
  gate?: Promise<unknown>;
}

/** One assistant message: text fragments, then every tool call, then finish and usage. */
export function assistantReply(calls: PlannedToolCall[], options: ReplyOptions = {}): FakeReply {
  const steps: StreamStep[] = [{ chunk: chunks.role() }];
  for (const text of options.content ?? []) steps.push({ chunk: chunks.content(text) });
  if (options.gate) steps.push({ waitFor: options.gate });
  calls.forEach((call, index) => {
    steps.push({ chunk: chunks.toolCall({ index, id: call.id, name: call.name, arguments: '' }) });
    steps.push({ chunk: chunks.toolCall({ index, arguments: JSON.stringify(call.arguments) }) });
  });
  steps.push({ chunk: chunks.finish(calls.length > 0 ? 'tool_calls' : 'stop') });
  if (options.usage) steps.push({ chunk: chunks.usage(options.usage) });
  return { type: 'stream', steps };
}

/** Assistant text followed by `task_finish {message}`. */
export function finishReply(message: string, options: ReplyOptions & { callId?: string } = {}): FakeReply {
  return assistantReply(
    [{ id: options.callId ?? 'call_finish', name: 'task_finish', arguments: { message } }],
    options,
  );
}

/** Assistant text followed by one `bash {command}` call. */
export function bashReply(command: string, options: ReplyOptions & { callId?: string } = {}): FakeReply {
  return assistantReply(
    [{ id: options.callId ?? 'call_bash', name: 'bash', arguments: { command } }],
    options,
  );
}

/** Streams the fragments, then keeps the response open forever (a model that never finishes). */
export function hangingTextReply(fragments: string[]): FakeReply {
  return {
    type: 'stream',
    steps: [{ chunk: chunks.role() }, ...fragments.map((text) => ({ chunk: chunks.content(text) }))],
    done: false,
    end: 'hang',
  };
}

/** OpenAI-style usage with `prompt_tokens_details.cached_tokens` when `cached` is given. */
export function providerUsage(prompt: number, completion: number, cached?: number): Record<string, unknown> {
  const usage: Record<string, unknown> = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
  if (cached !== undefined) usage.prompt_tokens_details = { cached_tokens: cached };
  return usage;
}

/** A promise plus the function that settles it: a gate a test opens at the moment it chooses. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** The chat messages of a recorded request body (`[]` when absent). */
export function requestMessages(body: Record<string, unknown> | null): Array<Record<string, unknown>> {
  const messages = body?.messages;
  return Array.isArray(messages) ? (messages as Array<Record<string, unknown>>) : [];
}
