/** The live control state of one run: cancellation, steering and the observable state (docs/spec/runtime.md §4). */
import type { ApprovalBroker } from './approvals/approval-broker';
import type { RunHandleState } from './run-config';
import type { RunJournal } from './run-journal';
import type { RunOutcome } from './run-outcome';
import { SteeringQueue } from './steering-queue';
import { OPERATION_CANCELLED } from './tools/tool-result';

export const DEFAULT_CANCEL_REASON = 'Run was cancelled.';

export class RunControl {
  readonly steering = new SteeringQueue();
  private readonly abortController = new AbortController();
  private acceptedCancelReason: string | null = null;
  private outcome: RunOutcome | null = null;
  private rejection: string | null = null;
  private settled = false;

  constructor(
    readonly broker: ApprovalBroker,
    private readonly journal: RunJournal,
  ) {}

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get cancelReason(): string | null {
    return this.acceptedCancelReason;
  }

  /** Live = not settled and no terminal event journaled. */
  private get live(): boolean {
    return !this.settled && !this.journal.hasTerminalEvent;
  }

  cancel(reason?: string): boolean {
    if (this.acceptedCancelReason !== null || !this.live) return false;
    this.acceptedCancelReason = reason === undefined || reason.trim() === '' ? DEFAULT_CANCEL_REASON : reason;
    // Deny pending approvals before aborting, so a decide() race lost to the abort finds them decided.
    this.broker.cancelPending(OPERATION_CANCELLED);
    this.abortController.abort(new Error(this.acceptedCancelReason));
    return true;
  }

  steer(text: string): string {
    if (typeof text !== 'string' || text.trim() === '') throw new Error('steer text must not be empty');
    if (!this.live) throw new Error('run is not active');
    return this.steering.enqueue(text);
  }

  /** Records the outcome before its terminal event is journaled. */
  recordOutcome(outcome: RunOutcome): void {
    this.outcome = outcome;
  }

  settle(rejection: string | null): void {
    this.settled = true;
    this.rejection = rejection;
    this.journal.close();
  }

  state(): RunHandleState {
    if (this.rejection !== null) {
      return { status: 'failed', done: true, cancelled: false, error: this.rejection };
    }
    const outcome = this.outcome;
    if (outcome && (this.journal.hasTerminalEvent || this.settled)) {
      if (outcome.completionReason === 'cancelled') {
        return { status: 'cancelled', done: true, cancelled: true, error: outcome.error };
      }
      return { status: outcome.status, done: true, cancelled: false, error: outcome.error };
    }
    return { status: 'running', done: false, cancelled: this.acceptedCancelReason !== null, error: null };
  }
}
