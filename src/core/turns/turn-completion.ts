/**
 * `turnCompleted` params and the stored turn `result` from how the turn ended
 * (docs/spec/protocol.md §4.6, §8.6). Pure.
 */
import type { RunResult } from '../../runtime/run-config';
import { emptyProtocolTokenUsage, toProtocolTokenUsage } from '../../runtime/usage/usage-ledger';
import type { CompletionReasonValue, TurnCompletedParams, TurnStatus } from '../model/types';
import { copyJson } from '../model/json-copy';

export const DEFAULT_TURN_FAILED_ERROR = 'Turn failed';
/** Error of a cancelled turn whose result carries no reason (the runtime's default cancel reason). */
export const DEFAULT_TURN_CANCELLED_ERROR = 'Run was cancelled.';

/** How the turn ended, as the turn runner observed it. */
export type TurnOutcome =
  /** The event stream ended and `RunHandle.result()` resolved. */
  | { kind: 'finished'; result: RunResult }
  /** `RunHandle.result()` rejected (e.g. model resolution failed): no result. */
  | { kind: 'rejected'; error: string }
  /** The event stream threw; `result` when `result()` still resolved, else null. */
  | { kind: 'streamFailed'; error: string; result: RunResult | null };

export type FinalTurnStatus = Exclude<TurnStatus, 'running'>;

export interface TurnIdentity {
  threadId: string;
  turnId: string;
  runId: string;
}

export interface TurnCompletedProjection {
  status: FinalTurnStatus;
  params: TurnCompletedParams;
  /** What `AppTurn.result` stores: params without threadId, turnId, runId, status. */
  result: Record<string, unknown>;
}

interface Terminal {
  status: FinalTurnStatus;
  completionReason?: CompletionReasonValue;
  error?: string;
}

export function projectTurnCompleted(identity: TurnIdentity, outcome: TurnOutcome): TurnCompletedProjection {
  // Only these three members: callers may pass a richer object (a RunningTurn is a TurnIdentity),
  // whose other members (its promises, handle, projector) must not reach the params or the store.
  const { threadId, turnId, runId } = identity;
  const result = outcome.kind === 'rejected' ? null : outcome.result;
  const terminal: Terminal =
    outcome.kind === 'finished'
      ? terminalOfResult(outcome.result)
      : {
          status: 'failed',
          completionReason: 'failed',
          error: nonEmpty(outcome.error) ?? DEFAULT_TURN_FAILED_ERROR,
        };

  const finalOutput = result ? (result.finalAnswer ?? result.waitReason ?? result.error) : null;
  // Members in the order of the §4.6 table; absent ones are omitted, never null.
  const params: TurnCompletedParams = {
    threadId,
    turnId,
    runId,
    status: terminal.status,
    ...(finalOutput !== null ? { finalOutput } : {}),
    ...(terminal.error !== undefined ? { error: terminal.error } : {}),
    ...(terminal.completionReason !== undefined ? { completionReason: terminal.completionReason } : {}),
    ...(result?.completionToolName ? { completionToolName: result.completionToolName } : {}),
    ...(typeof result?.partialOutput === 'string' ? { partialOutput: result.partialOutput } : {}),
    tokenUsage: result ? toProtocolTokenUsage(result.tokenUsage) : emptyProtocolTokenUsage(),
    ...(result?.budgetUsage ? { budgetUsage: structuredClone(result.budgetUsage) } : {}),
    ...(result?.budgetExhaustion ? { budgetExhaustion: structuredClone(result.budgetExhaustion) } : {}),
  };

  const { threadId: _threadId, turnId: _turnId, runId: _runId, status: _status, ...stored } = params;
  return { status: terminal.status, params, result: copyJson(stored) };
}

/** The §8.6 table for a run that produced a result. */
export function terminalOfResult(result: RunResult): Terminal {
  if (result.completionReason === 'cancelled') {
    return {
      status: 'interrupted',
      completionReason: 'cancelled',
      error: nonEmpty(result.error) ?? DEFAULT_TURN_CANCELLED_ERROR,
    };
  }
  switch (result.status) {
    case 'completed':
      return {
        status: 'completed',
        ...(result.completionReason ? { completionReason: result.completionReason } : {}),
      };
    case 'wait_user':
      return { status: 'interrupted', completionReason: result.completionReason ?? 'wait_user' };
    case 'max_cycles':
      return {
        status: 'failed',
        completionReason: result.completionReason ?? 'max_cycles',
        error: nonEmpty(result.error) ?? 'max_cycles',
      };
    case 'failed':
      return {
        status: 'failed',
        completionReason: result.completionReason ?? 'failed',
        error: nonEmpty(result.error) ?? DEFAULT_TURN_FAILED_ERROR,
      };
  }
}

function nonEmpty(text: string | null | undefined): string | undefined {
  return typeof text === 'string' && text.length > 0 ? text : undefined;
}
