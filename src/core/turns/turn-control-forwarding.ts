/**
 * docs/spec/postgres.md §2 "control across instances": steering (`steerTurn`), follow-ups (`followUpTurn`), interrupts (`interruptTurn`) and
 * approval resolutions (`resolveApproval`) for a turn that runs on another instance go to that instance and are answered
 * with its answer; `readLiveState` asks it for the live turn's snapshot (resume across
 * instances). The core only sees this port; the store's driver implements it (PostgreSQL: the
 * NOTIFY channel).
 */
import type { DomainErrorKind } from '../domain-error';

export type ForwardedControlOperation =
  'steerTurn' | 'followUpTurn' | 'interruptTurn' | 'resolveApproval' | 'readLiveState';

export type ForwardedAnswer =
  | { result: object }
  | { error: { kind: DomainErrorKind; message: string; data?: Readonly<Record<string, unknown>> } };

/** An answer plus what the answering instance does once the answer is on its way. */
export type ForwardedReply = ForwardedAnswer & { afterAnswer?: () => void };

/**
 * Answers a forwarded request when this instance runs the thread's turn; undefined otherwise.
 * `origin` names the asking instance (for owners that live there, see remote-owner.ts).
 */
export type ForwardedControlAnswerer = (
  operation: ForwardedControlOperation,
  params: Record<string, unknown>,
  origin: string,
) => ForwardedReply | undefined;

export interface TurnControlForwarder {
  /** The owner's answer; `turn owner instance did not answer` (InternalError) after 5 s. */
  forward(operation: ForwardedControlOperation, params: object): Promise<ForwardedAnswer>;
  /** Adds an answerer; the first that answers a request wins. */
  answerWith(answerer: ForwardedControlAnswerer): void;
}

export const TURN_CONTROL_FORWARDER = Symbol('TURN_CONTROL_FORWARDER');
export const OWNER_DID_NOT_ANSWER = 'turn owner instance did not answer';
export const FORWARD_TIMEOUT_MS = 5_000;
