/**
 * How the approval route asks a turn's owner (docs/spec/protocol.md §9.2 step 2) without knowing the
 * transport: the protocol layer sends its server request and reports how it ended.
 */
import type { ApprovalRequestParams } from '../model/types';

/** How asking the owner ended: its answer, or no answer at all. */
export type OwnerAnswer =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: { code: number; message: string; data?: unknown } }
  /** the route withdrew the question (`withdraw`) */
  | { kind: 'withdrawn' }
  /** the owner went away before answering */
  | { kind: 'closed' };

export interface ApprovalChannel {
  /** True while the owner can still be asked. */
  canReach(ownerId: string): boolean;
  /** Asks the owner; never rejects. */
  ask(ownerId: string, params: ApprovalRequestParams): Promise<OwnerAnswer>;
  /** Withdraws the question: it settles as `withdrawn`; a later answer is ignored. */
  withdraw(ownerId: string, requestId: string): void;
}

export const APPROVAL_CHANNEL = Symbol('APPROVAL_CHANNEL');
