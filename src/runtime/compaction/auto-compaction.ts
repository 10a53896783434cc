/**
 * Automatic compaction inside a run (docs/spec/history.md §1): before each model call, when the prompt
 * estimate exceeds 80 % of `context_length`, the conversation is compacted first. When the summary
 * call fails, today's trimming rule (docs/spec/runtime.md §11.6) is applied to the model context instead,
 * the run goes on, and no further automatic compaction is tried in this run (one failure is
 * enough to know the model cannot summarize this history now; retrying before every call would
 * repeat the cost and the failed item).
 */
import { trimHistory } from '../history-trimming';
import type { ResolvedModelConfig } from '../model/types';
import type { TokenUsage } from '../usage/types';
import { compactConversation, type CompactionContext } from './compaction-step';
import { splitForCompaction } from './keep-rule';
import { estimatePromptTokens, exceedsCompactionThreshold } from './prompt-estimate';
import type { PromptSizeTracker } from './prompt-size-tracker';

export class AutoCompaction {
  private gaveUp = false;

  constructor(
    private readonly context: CompactionContext,
    private readonly resolved: ResolvedModelConfig,
    private readonly enabled: boolean,
    private readonly promptSize: PromptSizeTracker,
  ) {}

  /** Runs before the cycle's model call; `cancelled` when the run was interrupted during it. */
  async beforeModelCall(cycleIndex: number): Promise<'cancelled' | null> {
    if (!this.enabled || this.gaveUp) return null;
    const { conversation, model } = this.context;
    const contextLength = this.resolved.context_length;
    const estimate = estimatePromptTokens(conversation.modelInput(), model.tools, this.promptSize.current());
    if (!exceedsCompactionThreshold(estimate, contextLength)) return null;
    const split = splitForCompaction(conversation.history(), contextLength, conversation.turnInput());
    // Everything already fits the verbatim tail: a summary would replace nothing; trim instead.
    if (split.summarized.length === 0) {
      await this.trimInstead();
      return null;
    }

    const attempt = await compactConversation(this.context, {
      trigger: 'auto',
      cycleIndex,
      split,
      estimatedTokensBefore: estimate,
    });
    if (attempt.kind === 'interrupted') return 'cancelled';
    if (attempt.kind === 'completed') {
      this.promptSize.reset();
      return null;
    }
    this.gaveUp = true;
    await this.trimInstead();
    return null;
  }

  /** Records the provider's prompt size of the cycle's call (`sentMessages`: system included). */
  afterModelCall(sentMessages: number, usage: TokenUsage): void {
    this.promptSize.observe(sentMessages, usage);
  }

  /** Today's trimming over the model context; the current turn (from its latest user message) stays. */
  private async trimInstead(): Promise<void> {
    const { conversation, model, sink } = this.context;
    const history = conversation.history();
    const pinned = conversation.turnInput();
    const turnStart = pinned === null ? history.length : Math.max(history.indexOf(pinned), 0);
    const turn = history.slice(turnStart);
    const trim = trimHistory({
      history: history.slice(0, turnStart),
      contextLength: this.resolved.context_length,
      maxOutputTokens: this.resolved.max_output_tokens,
      fixedMessages: [conversation.systemMessage, ...turn],
      toolSpecsJson: JSON.stringify(model.tools),
    });
    if (trim.droppedCount === 0) return;
    conversation.trimContext([...trim.kept, ...turn]);
    this.promptSize.reset();
    await sink.emit({
      type: 'diagnostic',
      level: 'info',
      code: 'history_trimmed',
      details: { dropped_messages: trim.droppedCount, kept_messages: trim.kept.length + turn.length },
    });
  }
}
