import { promptOutcome } from '../../../../src/protocols/acp/stop-reason';
import type { ModelResponseEnding } from '../../../../src/core/turns/model-response-ending';

type Completion = Parameters<typeof promptOutcome>[0];
type Outcome = ReturnType<typeof promptOutcome>;

const stopped: ModelResponseEnding = { finishReason: 'stop', toolCallCount: 0 };
const cutNoTool: ModelResponseEnding = { finishReason: 'length', toolCallCount: 0 };
const cutWithTool: ModelResponseEnding = { finishReason: 'length', toolCallCount: 1 };

describe('session/prompt stop reasons (docs/spec/acp.md §2)', () => {
  it.each<[Completion, ModelResponseEnding | null, Outcome]>([
    [{ status: 'completed', completionReason: 'tool_finish' }, stopped, { stopReason: 'end_turn' }],
    [{ status: 'completed', completionReason: 'no_tool_finish' }, stopped, { stopReason: 'end_turn' }],
    [{ status: 'interrupted', completionReason: 'wait_user' }, null, { stopReason: 'end_turn' }],
    [
      { status: 'interrupted', completionReason: 'cancelled', error: 'turn interrupted' },
      stopped,
      { stopReason: 'cancelled' },
    ],
    [
      { status: 'failed', completionReason: 'max_cycles', error: 'max_cycles' },
      stopped,
      { stopReason: 'max_turn_requests' },
    ],
    [
      { status: 'failed', completionReason: 'failed', error: 'model exploded' },
      stopped,
      { failure: 'model exploded' },
    ],
    [
      { status: 'failed', completionReason: 'budget_exhausted', error: 'Run budget exhausted.' },
      stopped,
      { failure: 'Run budget exhausted.' },
    ],
    [{ status: 'failed' }, null, { failure: 'Turn failed' }],
  ])('%j after %j → %j', (completion, ending, outcome) => {
    expect(promptOutcome(completion, ending)).toEqual(outcome);
  });

  describe('a model `length` finish with no tool call → max_tokens', () => {
    it.each<[Completion, Outcome]>([
      [{ status: 'completed', completionReason: 'no_tool_finish' }, { stopReason: 'max_tokens' }],
      [{ status: 'interrupted', completionReason: 'wait_user' }, { stopReason: 'max_tokens' }],
      [
        { status: 'failed', completionReason: 'max_cycles', error: 'max_cycles' },
        { stopReason: 'max_tokens' },
      ],
    ])('%j → %j', (completion, outcome) => {
      expect(promptOutcome(completion, cutNoTool)).toEqual(outcome);
    });

    it.each<[Completion, Outcome]>([
      // The turn did not end on that response: a tool ended it, the user cancelled, or a later call failed.
      [{ status: 'completed', completionReason: 'tool_finish' }, { stopReason: 'end_turn' }],
      [
        { status: 'interrupted', completionReason: 'cancelled', error: 'turn interrupted' },
        { stopReason: 'cancelled' },
      ],
      [{ status: 'failed', completionReason: 'failed', error: 'HTTP 500' }, { failure: 'HTTP 500' }],
    ])('not when %j', (completion, outcome) => {
      expect(promptOutcome(completion, cutNoTool)).toEqual(outcome);
    });

    it('not when the cut response asked for a tool', () => {
      const completion: Completion = {
        status: 'failed',
        completionReason: 'max_cycles',
        error: 'max_cycles',
      };
      expect(promptOutcome(completion, cutWithTool)).toEqual({ stopReason: 'max_turn_requests' });
    });
  });
});
