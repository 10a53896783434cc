/**
 * How a turn ends when its finalization could not be stored (issue 12 item 2, docs/spec/protocol.md §8.6):
 * `failed` with the store error, never the run's own success — the client must not be told a turn
 * completed when the store does not hold it. Usage and budget figures stay (they describe the run).
 */
import type { TurnCompletedParams } from '../model/types';
import type { TurnFinalization } from './run-projector';

/** Fields of a run's success that a failed turn does not carry (§4.6). */
const SUCCESS_ONLY_FIELDS = ['finalOutput', 'completionToolName'] as const;

export interface StoreFailedCompletion {
  /** `AppTurn.result` to store. */
  result: Record<string, unknown>;
  turnCompleted: TurnCompletedParams;
}

export function storeFailedCompletion(
  finalization: TurnFinalization,
  storeError: string,
): StoreFailedCompletion {
  const error = `store error: ${storeError}`;
  const result: Record<string, unknown> = { ...finalization.result, completionReason: 'failed', error };
  const turnCompleted: TurnCompletedParams = {
    ...finalization.turnCompleted,
    status: 'failed',
    completionReason: 'failed',
    error,
  };
  for (const field of SUCCESS_ONLY_FIELDS) {
    delete result[field];
    delete turnCompleted[field];
  }
  return { result, turnCompleted };
}
