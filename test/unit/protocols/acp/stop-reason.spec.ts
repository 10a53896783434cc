import { promptOutcome } from '../../../../src/protocols/acp/stop-reason';

describe('session/prompt stop reasons (acp.md §2)', () => {
  it.each<[Parameters<typeof promptOutcome>[0], ReturnType<typeof promptOutcome>]>([
    [{ status: 'completed', completionReason: 'tool_finish' }, { stopReason: 'end_turn' }],
    [{ status: 'completed', completionReason: 'no_tool_finish' }, { stopReason: 'end_turn' }],
    [{ status: 'interrupted', completionReason: 'wait_user' }, { stopReason: 'end_turn' }],
    [
      { status: 'interrupted', completionReason: 'cancelled', error: 'turn interrupted' },
      { stopReason: 'cancelled' },
    ],
    [
      { status: 'failed', completionReason: 'max_cycles', error: 'max_cycles' },
      { stopReason: 'max_turn_requests' },
    ],
    [
      { status: 'failed', completionReason: 'failed', error: 'model exploded' },
      { failure: 'model exploded' },
    ],
    [
      { status: 'failed', completionReason: 'budget_exhausted', error: 'Run budget exhausted.' },
      { failure: 'Run budget exhausted.' },
    ],
    [{ status: 'failed' }, { failure: 'Turn failed' }],
  ])('%j → %j', (completion, outcome) => {
    expect(promptOutcome(completion)).toEqual(outcome);
  });
});
