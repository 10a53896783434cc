/** Assembling the RunResult (runtime.md §5). */
import type { RunEvent } from './events/types';
import type { PromptSizeTracker } from './compaction/prompt-size-tracker';
import type { Conversation } from './conversation';
import type { RunResult } from './run-config';
import { finalOutputOf, type RunOutcome } from './run-outcome';
import type { TaskTokenUsage } from './usage/types';

export interface RunIdentity {
  runId: string;
  traceId: string;
  agentName: string;
  input: string;
}

export function buildRunResult(
  identity: RunIdentity,
  outcome: RunOutcome,
  tokenUsage: TaskTokenUsage,
  conversation: Conversation,
  promptSize: PromptSizeTracker,
  events: RunEvent[],
): RunResult {
  const compactedHistory = conversation.compactedHistory();
  const figure = promptSize.figure();
  return {
    ...identity,
    status: outcome.status,
    completionReason: outcome.completionReason,
    completionToolName: outcome.completionToolName,
    finalAnswer: outcome.finalAnswer,
    waitReason: outcome.waitReason,
    error: outcome.error,
    partialOutput: outcome.partialOutput,
    get finalOutput(): string | null {
      return finalOutputOf(this);
    },
    tokenUsage,
    newMessages: conversation.newMessages(),
    ...(compactedHistory !== undefined ? { compactedHistory } : {}),
    ...(figure !== undefined ? { promptSize: figure } : {}),
    events,
  };
}
