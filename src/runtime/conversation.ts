/** The run's conversation: what the model sees and what this run appended (docs/spec/runtime.md §11.6, docs/spec/history.md §1). */
import type { AssistantMessage, Message, ToolMessage } from './messages';

export const RUN_ENDED_TOOL_CONTENT = JSON.stringify({
  ok: false,
  error: 'Tool call did not run because the run ended.',
  error_code: 'run_ended',
});

function isBlankAssistant(message: Message): boolean {
  return (
    message.role === 'assistant' &&
    message.content.trim() === '' &&
    (message.tool_calls ?? []).length === 0 &&
    (message.reasoning_content ?? '') === ''
  );
}

/** Copies of the messages, with a `run_ended` tool message for every tool call that never got a result. */
function withRunEndedResults(messages: readonly Message[]): Message[] {
  const answered = new Set(
    messages.filter((m): m is ToolMessage => m.role === 'tool').map((message) => message.tool_call_id),
  );
  const repaired: Message[] = [];
  let open: AssistantMessage | null = null;
  const closeOpenCalls = (): void => {
    for (const call of open?.tool_calls ?? []) {
      if (answered.has(call.id)) continue;
      repaired.push({ role: 'tool', tool_call_id: call.id, content: RUN_ENDED_TOOL_CONTENT });
      answered.add(call.id);
    }
    open = null;
  };
  for (const message of messages) {
    if (message.role !== 'tool') closeOpenCalls();
    repaired.push(structuredClone(message));
    if (message.role === 'assistant') open = message;
  }
  closeOpenCalls();
  return repaired;
}

export interface AppendOptions {
  /** The run input or a steering text: the current turn's latest user message, kept by compaction. */
  turnInput?: boolean;
}

export class Conversation {
  /** `messages[0]` is always the system message. */
  private messages: Message[];
  private readonly appended: Message[] = [];
  private latestTurnInput: Message | null = null;
  /** The last compaction that took effect: its history and how many messages had been appended then. */
  private compaction: { history: Message[]; appendedBefore: number } | null = null;

  constructor(prefix: readonly Message[]) {
    this.messages = [...prefix];
  }

  /** Appends a message produced by this run (it becomes part of `newMessages`). */
  append(message: Message, options: AppendOptions = {}): void {
    this.messages.push(message);
    this.appended.push(message);
    if (options.turnInput) this.latestTurnInput = message;
  }

  /** How many messages this run appended so far. */
  get appendedCount(): number {
    return this.appended.length;
  }

  /** The model input (§11.1 step 4 drops blank assistant messages from it first). */
  modelInput(): Message[] {
    this.messages = this.messages.filter((message) => !isBlankAssistant(message));
    return [...this.messages];
  }

  get systemMessage(): Message {
    return this.messages[0];
  }

  /** The model context without the system message. */
  history(): Message[] {
    return this.messages.slice(1);
  }

  /** The current turn's latest user message (input or steering), or null (manual compaction). */
  turnInput(): Message | null {
    return this.latestTurnInput;
  }

  /** A compaction took effect: the model context becomes system + `history` (docs/spec/history.md §1). */
  replaceWithCompacted(history: Message[]): void {
    this.messages = [this.systemMessage, ...history];
    this.compaction = { history: structuredClone(history), appendedBefore: this.appended.length };
  }

  /** Fallback trimming: older messages leave the model context only (the stored history keeps them). */
  trimContext(history: Message[]): void {
    this.messages = [this.systemMessage, ...history];
  }

  /**
   * After a compaction took effect: the conversation a host stores in place of its history (the last
   * compacted history, then everything appended since, repaired like `newMessages`); else undefined.
   */
  compactedHistory(): Message[] | undefined {
    if (this.compaction === null) return undefined;
    return [
      ...structuredClone(this.compaction.history),
      ...withRunEndedResults(this.appended.slice(this.compaction.appendedBefore)),
    ];
  }

  /** The last non-empty assistant text of this run, or null. */
  lastAssistantText(): string | null {
    for (let index = this.appended.length - 1; index >= 0; index -= 1) {
      const message = this.appended[index];
      if (message.role === 'assistant' && message.content.trim() !== '') return message.content;
    }
    return null;
  }

  /** `newMessages`, with a `run_ended` tool message for every tool call that never got a result. */
  newMessages(): Message[] {
    return withRunEndedResults(this.appended);
  }
}
