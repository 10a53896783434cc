/**
 * What a compaction keeps verbatim (docs/spec/history.md §1). Pure.
 *
 * Walking back from the newest message, messages are kept until the next one would pass 30 % of
 * the context length (1 token per 4 characters). An assistant message with tool calls and its tool
 * results move as one unit, so a call is never separated from its results. The current turn's
 * latest user message is always kept: when the walk stopped before reaching it, it is kept in
 * front of the verbatim tail. Everything before the tail is what the summary replaces.
 */
import { messageChars } from '../history-trimming';
import type { Message } from '../messages';

export const KEEP_RATIO = 0.3;

export interface CompactionSplit {
  /** The history the summary request sends and the summary replaces, in order. */
  summarized: Message[];
  /** Kept verbatim after the summary message (the pinned user message first when it was older). */
  kept: Message[];
}

/** `[start, end)` ranges; a tool message belongs to the unit before it. */
function units(history: readonly Message[]): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  history.forEach((message, index) => {
    if (message.role === 'tool' && result.length > 0) result[result.length - 1][1] = index + 1;
    else result.push([index, index + 1]);
  });
  return result;
}

function tokensOf(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + Math.ceil(messageChars(message) / 4), 0);
}

/**
 * `history` is the model context without the system message; `contextLength` null keeps
 * everything; `pinned` is the current turn's latest user message (by identity), or null.
 */
export function splitForCompaction(
  history: readonly Message[],
  contextLength: number | null,
  pinned: Message | null,
): CompactionSplit {
  const limit = contextLength === null ? Infinity : KEEP_RATIO * contextLength;
  let used = 0;
  let tailStart = history.length;
  for (const [start, end] of units(history).reverse()) {
    const tokens = tokensOf(history.slice(start, end));
    if (used + tokens > limit) break;
    used += tokens;
    tailStart = start;
  }
  const summarized = history.slice(0, tailStart);
  const kept = history.slice(tailStart);
  if (pinned !== null && summarized.includes(pinned)) kept.unshift(pinned);
  return { summarized, kept };
}
