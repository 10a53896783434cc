/**
 * How a finished turn answers its `session/prompt` (acp.md §2): a stop reason, or the JSON-RPC
 * error of a failed turn. Pure.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { TurnCompletedParams } from '../../core/model/types';

export type PromptOutcome = { stopReason: StopReason } | { failure: string };

/** completed / wait_user → end_turn; cancelled → cancelled; max_cycles → max_turn_requests; else failed. */
export function promptOutcome(
  completion: Pick<TurnCompletedParams, 'status' | 'completionReason' | 'error'>,
): PromptOutcome {
  if (completion.status === 'completed') return { stopReason: 'end_turn' };
  if (completion.completionReason === 'wait_user') return { stopReason: 'end_turn' };
  if (completion.status === 'interrupted') return { stopReason: 'cancelled' };
  if (completion.completionReason === 'max_cycles') return { stopReason: 'max_turn_requests' };
  return { failure: completion.error ?? 'Turn failed' };
}
