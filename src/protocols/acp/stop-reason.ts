/**
 * How a finished turn answers its `session/prompt` (docs/spec/acp.md §2): a stop reason, or the JSON-RPC
 * error of a failed turn. Pure.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { TurnCompletedParams } from '../../core/model/types';
import { stoppedAtTokenLimit, type ModelResponseEnding } from '../../core/turns/model-response-ending';

export type PromptOutcome = { stopReason: StopReason } | { failure: string };

/**
 * A turn that ended on a model response cut at the token limit with no tool call → max_tokens;
 * otherwise completed / wait_user → end_turn; cancelled → cancelled; max_cycles →
 * max_turn_requests; else failed.
 */
export function promptOutcome(
  completion: Pick<TurnCompletedParams, 'status' | 'completionReason' | 'error'>,
  lastModelResponse: ModelResponseEnding | null,
): PromptOutcome {
  if (endedOnModelResponse(completion) && stoppedAtTokenLimit(lastModelResponse)) {
    return { stopReason: 'max_tokens' };
  }
  if (completion.status === 'completed') return { stopReason: 'end_turn' };
  if (completion.completionReason === 'wait_user') return { stopReason: 'end_turn' };
  if (completion.status === 'interrupted') return { stopReason: 'cancelled' };
  if (completion.completionReason === 'max_cycles') return { stopReason: 'max_turn_requests' };
  return { failure: completion.error ?? 'Turn failed' };
}

/**
 * The turn's last step was a model response without tool calls: a no-tool finish or wait, or the
 * last cycle of the `continue` policy. A tool-directed end (task_finish, ask_user) or an
 * interrupt is not.
 */
function endedOnModelResponse(completion: Pick<TurnCompletedParams, 'completionReason'>): boolean {
  const reason = completion.completionReason;
  return reason === 'no_tool_finish' || reason === 'max_cycles' || reason === 'wait_user';
}
