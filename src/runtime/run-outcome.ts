/** How a run ended: the rows of the outcome matrix (docs/spec/runtime.md §5.1, §5.2). */
import type { CompletionReason } from './events/types';

export type RunStatus = 'completed' | 'wait_user' | 'failed' | 'max_cycles';

/** The fields of the RunResult that say how the run ended; the cycle loop decides them. */
export interface RunOutcome {
  status: RunStatus;
  /** null only for a manual compaction run, which has no row in the matrix. */
  completionReason: CompletionReason | null;
  completionToolName: string | null;
  finalAnswer: string | null;
  waitReason: string | null;
  error: string | null;
  partialOutput: string | null;
}

export const MAX_CYCLES_ANSWER = 'Reached max cycles without finish signal.';
export const NO_TOOL_WAIT_REASON = 'No tool call and runtime is waiting for user.';

const EMPTY: Omit<RunOutcome, 'status' | 'completionReason'> = {
  completionToolName: null,
  finalAnswer: null,
  waitReason: null,
  error: null,
  partialOutput: null,
};

export function toolFinishOutcome(toolName: string, finalAnswer: string): RunOutcome {
  return {
    ...EMPTY,
    status: 'completed',
    completionReason: 'tool_finish',
    completionToolName: toolName,
    finalAnswer,
  };
}

export function noToolFinishOutcome(content: string): RunOutcome {
  return { ...EMPTY, status: 'completed', completionReason: 'no_tool_finish', finalAnswer: content };
}

export function toolWaitUserOutcome(
  toolName: string,
  question: string,
  partialOutput: string | null,
): RunOutcome {
  return {
    ...EMPTY,
    status: 'wait_user',
    completionReason: 'wait_user',
    completionToolName: toolName,
    waitReason: question,
    partialOutput,
  };
}

export function noToolWaitUserOutcome(content: string): RunOutcome {
  const blank = content.trim() === '';
  return {
    ...EMPTY,
    status: 'wait_user',
    completionReason: 'wait_user',
    waitReason: blank ? NO_TOOL_WAIT_REASON : content,
    partialOutput: blank ? null : content,
  };
}

export function maxCyclesOutcome(partialOutput: string | null): RunOutcome {
  return {
    ...EMPTY,
    status: 'max_cycles',
    completionReason: 'max_cycles',
    finalAnswer: MAX_CYCLES_ANSWER,
    partialOutput,
  };
}

/** A manual compaction run that compacted (or skipped): completed, no answer, no completion reason. */
export function compactionCompletedOutcome(): RunOutcome {
  return { ...EMPTY, status: 'completed', completionReason: null };
}

export function failedOutcome(error: string, partialOutput: string | null): RunOutcome {
  return { ...EMPTY, status: 'failed', completionReason: 'failed', error, partialOutput };
}

export function cancelledOutcome(reason: string, partialOutput: string | null): RunOutcome {
  return { ...EMPTY, status: 'failed', completionReason: 'cancelled', error: reason, partialOutput };
}

/** A failed result whose run was cancelled is always relabelled cancelled (§5.2). */
export function relabelIfCancelled(
  outcome: RunOutcome,
  cancelReason: string | null,
  partialOutput: string | null,
): RunOutcome {
  if (cancelReason === null || outcome.status !== 'failed' || outcome.completionReason === 'cancelled')
    return outcome;
  return cancelledOutcome(cancelReason, partialOutput);
}

/** `finalAnswer ?? waitReason ?? error`. */
export function finalOutputOf(
  outcome: Pick<RunOutcome, 'finalAnswer' | 'waitReason' | 'error'>,
): string | null {
  return outcome.finalAnswer ?? outcome.waitReason ?? outcome.error;
}
