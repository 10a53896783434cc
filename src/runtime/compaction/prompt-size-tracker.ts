/**
 * The provider figure of the prompt-size estimate (docs/spec/history.md §1), across the calls of a run and,
 * through `RunConfig.promptSize` / `RunResult.promptSize`, across the runs of a thread: the last
 * provider-reported prompt size of a normal call and where that prompt ended.
 */
import type { Conversation } from '../conversation';
import type { TokenUsage } from '../usage/types';
import { promptAnchor, type PromptAnchor } from './prompt-estimate';

/** `promptTokens` of the last normal call; `messagesSince`: messages at the end of the stored conversation added after it. */
export interface PromptSize {
  promptTokens: number;
  messagesSince: number;
}

/** The anchor a previous run's figure gives for a conversation `[system, …history (historyLength), …]`. */
export function anchorForHistory(figure: PromptSize | undefined, historyLength: number): PromptAnchor | null {
  if (figure === undefined) return null;
  const { promptTokens, messagesSince } = figure;
  if (!Number.isInteger(promptTokens) || promptTokens < 0) return null;
  if (!Number.isInteger(messagesSince) || messagesSince < 0 || messagesSince > historyLength) return null;
  return { promptTokens, sentMessages: 1 + historyLength - messagesSince };
}

export class PromptSizeTracker {
  private anchor: PromptAnchor | null = null;
  /** `conversation.appendedCount` when the anchored prompt was sent (negative for a host figure). */
  private appendedAt = 0;

  constructor(private readonly conversation: Conversation) {}

  /**
   * Takes over the previous run's figure for the history the conversation starts with
   * (`historyLength` non-system messages after the system message). Ignored when it does not fit.
   */
  adopt(figure: PromptSize | undefined, historyLength: number): void {
    const anchor = anchorForHistory(figure, historyLength);
    if (anchor === null || figure === undefined) return;
    this.anchor = anchor;
    this.appendedAt = this.conversation.appendedCount - figure.messagesSince;
  }

  current(): PromptAnchor | null {
    return this.anchor;
  }

  /** After a normal call that sent `sentMessages` messages (system included). */
  observe(sentMessages: number, usage: TokenUsage): void {
    const anchor = promptAnchor(usage, sentMessages);
    if (anchor === null) return;
    this.anchor = anchor;
    this.appendedAt = this.conversation.appendedCount;
  }

  /** The model context changed under the figure (compaction, trimming): none until the next call. */
  reset(): void {
    this.anchor = null;
  }

  /** What to pass as `RunConfig.promptSize` to the next run on the stored conversation. */
  figure(): PromptSize | undefined {
    if (this.anchor === null) return undefined;
    return {
      promptTokens: this.anchor.promptTokens,
      messagesSince: this.conversation.appendedCount - this.appendedAt,
    };
  }
}
