/**
 * A manual compaction run (docs/spec/history.md §1, `thread/compact`): compacts the given history without a
 * user turn. Fewer than 2 user messages → completed with `skipped: true` and no model call. When
 * the keep rule would keep everything verbatim, the whole history is summarized (a requested
 * compaction always compacts). A failed summary call fails the run; an interrupt cancels it; in
 * both cases the history is unchanged.
 */
import { cancelledOutcome, compactionCompletedOutcome, failedOutcome, type RunOutcome } from '../run-outcome';
import { compactConversation, type CompactionContext } from './compaction-step';
import { splitForCompaction } from './keep-rule';
import { estimatePromptTokens } from './prompt-estimate';

/** The summary call of a manual compaction is recorded under cycle 1 (the run has no cycles). */
const MANUAL_CYCLE = 1;
const MIN_USER_MESSAGES = 2;

export async function runManualCompaction(
  context: CompactionContext,
  contextLength: number | null,
): Promise<RunOutcome> {
  const { conversation, model, sink } = context;
  const history = conversation.history();
  const estimate = estimatePromptTokens(conversation.modelInput(), model.tools, null);
  if (history.filter((message) => message.role === 'user').length < MIN_USER_MESSAGES) {
    await sink.emit({ type: 'context_compaction_started', trigger: 'manual' });
    await sink.emit({
      type: 'context_compaction_completed',
      trigger: 'manual',
      skipped: true,
      messages_before: history.length,
      messages_after: history.length,
      estimated_tokens_before: estimate,
      estimated_tokens_after: estimate,
    });
    return compactionCompletedOutcome();
  }

  let split = splitForCompaction(history, contextLength, null);
  if (split.summarized.length === 0) split = { summarized: history, kept: [] };
  const attempt = await compactConversation(context, {
    trigger: 'manual',
    cycleIndex: MANUAL_CYCLE,
    split,
    estimatedTokensBefore: estimate,
  });
  switch (attempt.kind) {
    case 'completed':
      return compactionCompletedOutcome();
    case 'failed':
      return failedOutcome(attempt.error, null);
    case 'interrupted':
      return cancelledOutcome(attempt.reason, null);
  }
}
