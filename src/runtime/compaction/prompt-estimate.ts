/**
 * The prompt-size estimate and the automatic trigger of docs/spec/history.md §1. Pure.
 *
 * With a provider figure: the last provider-reported `prompt_tokens` of a normal (non-compaction)
 * call plus 1 token per 4 characters of the messages added since that call was sent. Without one
 * (none yet, or none since the last compaction): 1 token per 4 characters of everything sent,
 * messages and tool specs.
 */
import { codePoints, messageChars } from '../history-trimming';
import type { Message } from '../messages';
import type { ToolSpec } from '../model/types';
import type { TokenUsage } from '../usage/types';

/** Compaction runs when the estimate exceeds this share of `context_length`. */
export const COMPACTION_TRIGGER_RATIO = 0.8;

/** A provider-reported prompt size and how many messages (system included) that request sent. */
export interface PromptAnchor {
  promptTokens: number;
  sentMessages: number;
}

/**
 * Characters of the tool specs' JSON, per specs list: the list is replaced, never changed, when
 * the tools change (a dynamic refresh), and serializing it before every model call was a cost
 * growing with nothing.
 */
const toolSpecChars = new WeakMap<readonly ToolSpec[], number>();

function toolSpecsChars(toolSpecs: readonly ToolSpec[]): number {
  let chars = toolSpecChars.get(toolSpecs);
  if (chars === undefined) {
    chars = toolSpecs.length > 0 ? codePoints(JSON.stringify(toolSpecs)) : 0;
    toolSpecChars.set(toolSpecs, chars);
  }
  return chars;
}

function charsOf(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + messageChars(message), 0);
}

/** `messages` is the full model input (system message first). */
export function estimatePromptTokens(
  messages: readonly Message[],
  toolSpecs: readonly ToolSpec[],
  anchor: PromptAnchor | null,
): number {
  if (anchor !== null && anchor.sentMessages <= messages.length) {
    return anchor.promptTokens + Math.ceil(charsOf(messages.slice(anchor.sentMessages)) / 4);
  }
  return Math.ceil((charsOf(messages) + toolSpecsChars(toolSpecs)) / 4);
}

/** The anchor a completed normal call gives, or null when its usage was not provider-reported. */
export function promptAnchor(usage: TokenUsage, sentMessages: number): PromptAnchor | null {
  if (usage.usage_source !== 'provider_reported' || usage.input_tokens === null) return null;
  return { promptTokens: usage.input_tokens, sentMessages };
}

/** Strictly more than 80 % of a known context length. */
export function exceedsCompactionThreshold(estimate: number, contextLength: number | null): boolean {
  return contextLength !== null && contextLength > 0 && estimate > COMPACTION_TRIGGER_RATIO * contextLength;
}
