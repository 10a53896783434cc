/**
 * How the turn's latest model response ended, read from the runtime's `cycle_llm_response`
 * diagnostic (docs/spec/runtime.md §6.5). ACP needs it for `max_tokens` (docs/spec/acp.md §2: "a model `length`
 * finish with no tool call"); the App Server wire has no place for it and does not carry it.
 */
import type { RunEvent } from '../../runtime/events/types';

export interface ModelResponseEnding {
  /** The provider's `finish_reason` (`stop`, `length`, `tool_calls`, …); null when it sent none. */
  finishReason: string | null;
  toolCallCount: number;
}

/** The ending an event reports, or null when the event is not a model response report. */
export function modelResponseEndingOf(event: RunEvent): ModelResponseEnding | null {
  if (event.type !== 'diagnostic' || event.code !== 'cycle_llm_response') return null;
  const { finish_reason: finishReason, tool_call_count: toolCallCount } = event.details;
  return {
    finishReason: typeof finishReason === 'string' ? finishReason : null,
    toolCallCount: typeof toolCallCount === 'number' ? toolCallCount : 0,
  };
}

/** The response was cut at the provider's output token limit and asked for no tool. */
export function stoppedAtTokenLimit(ending: ModelResponseEnding | null): boolean {
  return ending !== null && ending.finishReason === 'length' && ending.toolCallCount === 0;
}
