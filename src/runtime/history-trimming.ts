/** Trimming of conversation history to the model's context length (docs/spec/runtime.md §11.6). */
import { codePointLength } from './code-points';
import type { Message } from './messages';

const DEFAULT_OUTPUT_RESERVE = 16384;

export function codePoints(text: string | undefined): number {
  return text === undefined ? 0 : codePointLength(text);
}

/**
 * Per message: a message is never changed once it is in the conversation, and the prompt estimate
 * before every model call counted the whole conversation again.
 */
const charsByMessage = new WeakMap<Message, number>();

/** Code points of content, reasoning and every tool call's name and arguments. */
export function messageChars(message: Message): number {
  let chars = charsByMessage.get(message);
  if (chars === undefined) {
    chars = countMessageChars(message);
    charsByMessage.set(message, chars);
  }
  return chars;
}

function countMessageChars(message: Message): number {
  let chars = codePoints(message.content);
  if (message.role === 'assistant') {
    chars += codePoints(message.reasoning_content);
    for (const call of message.tool_calls ?? [])
      chars += codePoints(call.function.name) + codePoints(call.function.arguments);
  }
  return chars;
}

/** `ceil(chars / 4) + 4` (see `messageChars`). */
export function estimateMessageTokens(message: Message): number {
  return Math.ceil(messageChars(message) / 4) + 4;
}

function estimateMessages(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

/** Segments each start at a user message; a leading non-user part is its own segment. */
function segments(history: readonly Message[]): Message[][] {
  const result: Message[][] = [];
  for (const message of history) {
    if (message.role === 'user' || result.length === 0) result.push([message]);
    else result[result.length - 1].push(message);
  }
  return result;
}

export interface TrimInput {
  /** The droppable history, oldest first. */
  history: readonly Message[];
  contextLength: number | null;
  maxOutputTokens: number | null;
  /**
   * Messages sent besides the history that are never dropped: at run setup the system message and
   * the new user message; when compaction fails mid-run, the system message and the current turn.
   */
  fixedMessages: readonly Message[];
  /** JSON of the tool specs sent to the model. */
  toolSpecsJson: string;
}

export interface TrimResult {
  kept: Message[];
  droppedCount: number;
}

export function trimHistory(input: TrimInput): TrimResult {
  const { history, contextLength } = input;
  if (contextLength === null || contextLength === undefined) return { kept: [...history], droppedCount: 0 };
  let reserve = input.maxOutputTokens ?? DEFAULT_OUTPUT_RESERVE;
  if (reserve >= contextLength) reserve = Math.floor(contextLength / 4);
  const budget =
    contextLength -
    reserve -
    estimateMessages(input.fixedMessages) -
    Math.ceil(codePoints(input.toolSpecsJson) / 4);
  const remaining = segments(history);
  let estimate = estimateMessages(history);
  while (remaining.length > 0 && (budget <= 0 || estimate > budget)) {
    estimate -= estimateMessages(remaining.shift() ?? []);
  }
  const kept = remaining.flat();
  return { kept, droppedCount: history.length - kept.length };
}
