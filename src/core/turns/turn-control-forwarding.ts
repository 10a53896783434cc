/**
 * postgres.md §2 "control across instances": `turn/steer`, `turn/followUp` and `turn/interrupt`
 * for a turn that runs on another instance go to that instance and are answered with its answer.
 * The core only sees this port; the store's driver implements it (PostgreSQL: the NOTIFY channel).
 */
import type { DomainErrorKind } from '../domain-error';

export type ForwardedControlMethod = 'turn/steer' | 'turn/followUp' | 'turn/interrupt';

export type ForwardedAnswer =
  | { result: object }
  | { error: { kind: DomainErrorKind; message: string; data?: Readonly<Record<string, unknown>> } };

/** Answers a forwarded request when this instance runs the thread's turn; undefined otherwise. */
export type ForwardedControlAnswerer = (
  method: ForwardedControlMethod,
  params: Record<string, unknown>,
) => ForwardedAnswer | undefined;

export interface TurnControlForwarder {
  /** The owner's answer; `turn owner instance did not answer` (InternalError) after 5 s. */
  forward(method: ForwardedControlMethod, params: object): Promise<ForwardedAnswer>;
  answerWith(answerer: ForwardedControlAnswerer): void;
}

export const TURN_CONTROL_FORWARDER = Symbol('TURN_CONTROL_FORWARDER');
export const OWNER_DID_NOT_ANSWER = 'turn owner instance did not answer';
export const FORWARD_TIMEOUT_MS = 5_000;
