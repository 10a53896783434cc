/** Assembling the RunResult (docs/spec/runtime.md §5). */
import type { RunEvent } from './events/types';
import type { PromptSizeTracker } from './compaction/prompt-size-tracker';
import type { Conversation } from './conversation';
import type { RunIdentity, RunResult } from './run-config';
import { finalOutputOf, type RunOutcome } from './run-outcome';
import type { TaskTokenUsage } from './usage/types';

export function buildRunResult(
  identity: RunIdentity,
  outcome: RunOutcome,
  tokenUsage: TaskTokenUsage,
  conversation: Conversation,
  promptSize: PromptSizeTracker,
  /** The journal's events; read on first access of `result.events` and kept from then on. */
  journalEvents: () => RunEvent[],
): RunResult {
  // The journal keeps stream deltas compactly; rebuilding all of them as objects when the run ends
  // would bring back the memory that saves (issue 11), and hosts that stream events() never read
  // `events`, so the array is built on its first read.
  let events: RunEvent[] | undefined;
  const compactedHistory = conversation.compactedHistory();
  const figure = promptSize.figure();
  return {
    ...identity,
    ...outcome,
    get finalOutput(): string | null {
      return finalOutputOf(this);
    },
    tokenUsage,
    newMessages: conversation.newMessages(),
    ...(compactedHistory !== undefined ? { compactedHistory } : {}),
    ...(figure !== undefined ? { promptSize: figure } : {}),
    get events(): RunEvent[] {
      events ??= journalEvents();
      return events;
    },
  };
}
