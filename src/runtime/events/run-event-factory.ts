/** Building RunEvent v2 objects: the envelope (docs/spec/runtime.md §6.1) and terminal events (§6.3). */
import { newId } from '../ids';
import { finalOutputOf, type RunOutcome } from '../run-outcome';
import type { RunEvent, RunEventPayload } from './types';

/** What every event of one run shares. */
export interface RunEventScope {
  runId: string;
  traceId: string;
  agentName: string;
  sessionId: string | null;
}

export interface EventPlacement {
  /** 1-based cycle; omitted from the envelope when absent or 0. */
  cycleIndex?: number;
  /** Omitted when empty. */
  metadata?: Record<string, unknown>;
}

export function nowSeconds(): number {
  return Date.now() / 1000;
}

/**
 * One flat event: envelope fields first, then the payload, then `metadata` when non-empty. The
 * payload is assigned onto the envelope (same order and overrides as a spread): spreading the
 * envelope into a second object cost several times more per event, and a streamed turn builds one
 * event per delta.
 */
export function buildRunEvent(
  scope: RunEventScope,
  payload: RunEventPayload,
  placement: EventPlacement = {},
): RunEvent {
  const event: Record<string, unknown> = {
    version: 'v2',
    type: payload.type,
    event_id: newId('evt_'),
    run_id: scope.runId,
    trace_id: scope.traceId,
    created_at: nowSeconds(),
  };
  if (scope.sessionId !== null) event.session_id = scope.sessionId;
  if (placement.cycleIndex !== undefined && placement.cycleIndex > 0)
    event.cycle_index = placement.cycleIndex;
  event.agent_name = scope.agentName;
  Object.assign(event, payload);
  if (placement.metadata && Object.keys(placement.metadata).length > 0) event.metadata = placement.metadata;
  return event as unknown as RunEvent;
}

/** The one terminal event payload for an outcome. */
export function terminalEventPayload(outcome: RunOutcome): RunEventPayload {
  if (outcome.completionReason === 'cancelled') {
    return {
      type: 'run_cancelled',
      reason: outcome.error ?? '',
      completion_reason: 'cancelled',
      ...(outcome.partialOutput !== null ? { partial_output: outcome.partialOutput } : {}),
    };
  }
  const completion = {
    ...(outcome.completionReason !== null ? { completion_reason: outcome.completionReason } : {}),
    ...(outcome.completionToolName !== null ? { completion_tool_name: outcome.completionToolName } : {}),
    ...(outcome.partialOutput !== null ? { partial_output: outcome.partialOutput } : {}),
  };
  if (outcome.status === 'failed' || outcome.status === 'max_cycles') {
    return {
      type: 'run_failed',
      error: outcome.error ?? outcome.status,
      status: outcome.status,
      ...completion,
    };
  }
  return {
    type: 'run_completed',
    status: outcome.status,
    final_output: finalOutputOf(outcome),
    ...completion,
  };
}
