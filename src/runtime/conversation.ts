/** The run's conversation: what the model sees and what this run appended (runtime.md §11.6). */
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

export class Conversation {
  private messages: Message[];
  private readonly appended: Message[] = [];

  constructor(prefix: readonly Message[]) {
    this.messages = [...prefix];
  }

  /** Appends a message produced by this run (it becomes part of `newMessages`). */
  append(message: Message): void {
    this.messages.push(message);
    this.appended.push(message);
  }

  /** The model input (§11.1 step 4 drops blank assistant messages from it first). */
  modelInput(): Message[] {
    this.messages = this.messages.filter((message) => !isBlankAssistant(message));
    return [...this.messages];
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
    const answered = new Set(
      this.appended.filter((m): m is ToolMessage => m.role === 'tool').map((message) => message.tool_call_id),
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
    for (const message of this.appended) {
      if (message.role !== 'tool') closeOpenCalls();
      repaired.push(structuredClone(message));
      if (message.role === 'assistant') open = message;
    }
    closeOpenCalls();
    return repaired;
  }
}
