/**
 * One compaction of the run's conversation (docs/spec/history.md §1): `context_compaction_started`, the
 * summary call (a streamed chat-completions call without tools, recorded in the run's token usage
 * like any call, but streaming no delta events), then either the compacted conversation plus
 * `context_compaction_completed` carrying it, or `context_compaction_failed` with the history left
 * unchanged.
 */
import type { Conversation } from '../conversation';
import type { RunEventSink } from '../events/run-event-sink';
import type { CompactionTrigger } from '../events/types';
import { performModelCall, type ModelCallSetup } from '../model/model-call';
import type { CompactionSplit } from './keep-rule';
import { estimatePromptTokens } from './prompt-estimate';
import { summaryMessage, summaryRequestMessages, summarySettings } from './summary-request';

export const EMPTY_SUMMARY_ERROR = 'compaction summary is empty';

export interface CompactionContext {
  sink: RunEventSink;
  /** The run's model call setup; its `tools` are the run's tool specs (used for estimates only). */
  model: ModelCallSetup;
  conversation: Conversation;
  /** The accepted cancel reason, or null while the run is not cancelled. */
  cancelReason(): string | null;
}

export interface CompactionRequest {
  trigger: CompactionTrigger;
  /** The cycle the summary call is recorded under (1 for a manual compaction). */
  cycleIndex: number;
  split: CompactionSplit;
  estimatedTokensBefore: number;
}

export type CompactionAttempt =
  | { kind: 'completed' }
  | { kind: 'failed'; error: string }
  /** Cancelled during the compaction; the conversation is unchanged. */
  | { kind: 'interrupted'; reason: string };

export async function compactConversation(
  context: CompactionContext,
  request: CompactionRequest,
): Promise<CompactionAttempt> {
  const { sink, model, conversation } = context;
  const { trigger, split } = request;
  const messagesBefore = conversation.history().length;
  await sink.emit({ type: 'context_compaction_started', trigger });

  const call = await performModelCall(
    { ...model, tools: [], settings: summarySettings(model.settings) },
    request.cycleIndex,
    summaryRequestMessages(conversation.systemMessage, split.summarized, model.resolved),
    { operation: 'context_compaction' },
  );
  const cancelReason = context.cancelReason();
  if (cancelReason !== null) {
    // An interrupt wins over whatever the call produced: the history stays as it was.
    await sink.emit({ type: 'context_compaction_failed', trigger, error: cancelReason, interrupted: true });
    return { kind: 'interrupted', reason: cancelReason };
  }
  const summary = call.ok ? call.response.content.trim() : '';
  if (!call.ok || summary === '') {
    const error = call.ok ? EMPTY_SUMMARY_ERROR : call.error;
    await sink.emit({ type: 'context_compaction_failed', trigger, error });
    return { kind: 'failed', error };
  }

  const history = [summaryMessage(summary), ...split.kept];
  conversation.replaceWithCompacted(history);
  await sink.emit({
    type: 'context_compaction_completed',
    trigger,
    summary,
    messages_before: messagesBefore,
    messages_after: history.length,
    estimated_tokens_before: request.estimatedTokensBefore,
    estimated_tokens_after: estimatePromptTokens(conversation.modelInput(), model.tools, null),
    history: structuredClone(history),
  });
  return { kind: 'completed' };
}
