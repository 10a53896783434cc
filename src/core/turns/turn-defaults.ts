/**
 * What the domain needs of the server's options to start turns: the runner (null without a
 * runtime) and the approval defaults a host's run config may leave unset (docs/spec/protocol.md §9).
 */
import type { ApprovalPolicy } from '../../runtime/approvals/types';
import type { Runner } from '../../runtime/runner';
import type { ServerSandbox } from '../sandbox/server-sandbox';

export interface TurnDefaults {
  readonly runner: Runner | null;
  readonly approvalPolicy: ApprovalPolicy;
  readonly approvalTimeoutMs: number;
  /** docs/spec/sandbox.md §1: the server's most permissive mode and its boundary; null when none is configured. */
  readonly sandbox: ServerSandbox | null;
}

export const TURN_DEFAULTS = Symbol('TURN_DEFAULTS');
