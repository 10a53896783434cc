/**
 * Approval answers → effective decisions (docs/spec/protocol.md §9.4, §9.5) and the `approvalResolved`
 * params (§4.12). Pure and table-tested.
 */
import type { ApprovalAction, ApprovalDecision } from '../../runtime/approvals/types';

/** The internal reason strings of docs/spec/protocol.md §6 that surface in `approvalResolved.reason`. */
export const APPROVAL_REASONS = {
  timedOut: 'approval request timed out',
  clientDisconnected: 'client disconnected',
  turnInterrupted: 'turn interrupted',
  shuttingDown: 'server shutting down',
  denied: 'approval denied',
  invalidResponse: 'invalid approval response',
} as const;

/** How the owner answered its approval question. */
export type ApprovalAnswer =
  { kind: 'result'; result: unknown } | { kind: 'error'; error: { message: string } };

const ACTIONS: readonly ApprovalAction[] = ['allow', 'allow_session', 'deny', 'timeout'];

/** Reason used when the answer supplies none; allow/allow_session have none. */
const DEFAULT_REASONS: Record<ApprovalAction, string | undefined> = {
  allow: undefined,
  allow_session: undefined,
  deny: APPROVAL_REASONS.denied,
  timeout: APPROVAL_REASONS.timedOut,
};

/**
 * The effective decision of an answer (§9.4): a valid `result.decision` with the supplied reason
 * (`reason`, else `message`, when non-empty) or its default, and `result.metadata` when it is an
 * object; anything else in a response → deny / `invalid approval response`; an error answer →
 * timeout with the error's message.
 */
export function decisionFromAnswer(answer: ApprovalAnswer): ApprovalDecision {
  if (answer.kind === 'error')
    return timeoutDecision(nonEmpty(answer.error.message) ?? APPROVAL_REASONS.timedOut);
  const { result } = answer;
  if (!isObject(result) || !isAction(result.decision)) {
    return { action: 'deny', reason: APPROVAL_REASONS.invalidResponse };
  }
  const action = result.decision;
  const reason = nonEmpty(result.reason) ?? nonEmpty(result.message) ?? DEFAULT_REASONS[action];
  const decision: ApprovalDecision = { action };
  if (reason !== undefined) decision.reason = reason;
  if (isObject(result.metadata)) decision.metadata = structuredClone(result.metadata);
  return decision;
}

/**
 * Why a response result is not a valid answer (it then counts as deny), for the server's warning
 * log; null when it is valid. The value is shown compactly, cut at 200 characters.
 */
export function invalidAnswerProblem(result: unknown): string | null {
  if (isObject(result) && isAction(result.decision)) return null;
  const expected = `expected one of: ${ACTIONS.join(', ')}`;
  if (!isObject(result)) return `result ${compact(result)} is not an object with a decision (${expected})`;
  if (result.decision === undefined) return `result has no decision (${expected})`;
  return `decision ${compact(result.decision)} is not valid (${expected})`;
}

function compact(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A timeout decision for the server's own causes (timer, disconnect, interrupt, shutdown). */
export function timeoutDecision(reason: string): ApprovalDecision {
  return { action: 'timeout', reason };
}

export interface ApprovalIdentity {
  threadId: string;
  turnId: string;
  requestId: string;
}

/** §4.12: `reason` omitted when empty, `metadata` omitted when absent or `{}`. */
function isAction(value: unknown): value is ApprovalAction {
  return typeof value === 'string' && (ACTIONS as readonly string[]).includes(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
