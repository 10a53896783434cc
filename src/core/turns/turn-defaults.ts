/**
 * What the domain needs of the server's options to start turns: the runner (null without a
 * runtime) and the approval defaults a host's run config may leave unset (docs/spec/protocol.md §9).
 */
import type { ApprovalPolicy } from '../../runtime/approvals/types';
import type { Runner } from '../../runtime/runner';

export interface TurnDefaults {
  readonly runner: Runner | null;
  readonly approvalPolicy: ApprovalPolicy;
  readonly approvalTimeoutMs: number;
}

export const TURN_DEFAULTS = Symbol('TURN_DEFAULTS');
