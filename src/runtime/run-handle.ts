/** The RunHandle returned by `Runner.start` (docs/spec/runtime.md §4). */
import type { ApprovalDecision } from './approvals/types';
import type { RunHandle, RunHandleState, RunResult } from './run-config';
import type { RunControl } from './run-control';
import type { RunEventReader, RunJournal } from './run-journal';

export class LiveRunHandle implements RunHandle {
  private readonly followUpTexts: string[] = [];

  constructor(
    readonly runId: string,
    readonly traceId: string,
    private readonly journal: RunJournal,
    private readonly control: RunControl,
    private readonly outcome: Promise<RunResult>,
  ) {}

  events(): RunEventReader {
    return this.journal.reader();
  }

  result(): Promise<RunResult> {
    return this.outcome;
  }

  cancel(reason?: string): boolean {
    return this.control.cancel(reason);
  }

  steer(text: string): string {
    return this.control.steer(text);
  }

  followUp(text: string): void {
    this.followUpTexts.push(text);
  }

  followUps(): string[] {
    return [...this.followUpTexts];
  }

  async approve(requestId: string, decision: ApprovalDecision): Promise<void> {
    this.control.broker.resolve(requestId, decision);
  }

  state(): RunHandleState {
    return this.control.state();
  }
}
