import { projectTurnCompleted, type TurnOutcome } from '../../../../src/core/turns/turn-completion';
import { emptyProtocolTokenUsage } from '../../../../src/runtime/usage/usage-ledger';
import { ledger, missingUsage, runResult } from './projector-test-support';

const identity = { threadId: 'thread_1', turnId: 'turn_1', runId: 'run_1' };
const usage = ledger([{ cycle: 1, usage: missingUsage() }], {
  input_tokens: null,
  output_tokens: null,
  total_tokens: null,
  reasoning_tokens: null,
});
const projectedUsage = {
  schema_version: 'vv-agent.task-token-usage.v1',
  input_tokens: null,
  output_tokens: null,
  total_tokens: null,
  reasoning_tokens: null,
  cache_usage: {
    status: 'accounting_missing',
    read_input_tokens: null,
    write_input_tokens: null,
    uncached_input_tokens: null,
    source: 'aggregate',
  },
  cycles: [{ cycle_index: 1, usage: missingUsage() }],
};

describe('projectTurnCompleted (docs/spec/protocol.md §4.6, §8.6)', () => {
  it.each<[string, TurnOutcome, Record<string, unknown>]>([
    [
      'completed through task_finish',
      { kind: 'finished', result: runResult({ finalAnswer: 'Done.', tokenUsage: usage }) },
      {
        status: 'completed',
        finalOutput: 'Done.',
        completionReason: 'tool_finish',
        completionToolName: 'task_finish',
        tokenUsage: projectedUsage,
      },
    ],
    [
      'no_tool_finish with an empty answer keeps finalOutput ""',
      {
        kind: 'finished',
        result: runResult({
          completionReason: 'no_tool_finish',
          completionToolName: null,
          finalAnswer: '',
          tokenUsage: usage,
        }),
      },
      {
        status: 'completed',
        finalOutput: '',
        completionReason: 'no_tool_finish',
        tokenUsage: projectedUsage,
      },
    ],
    [
      'wait_user through ask_user (§4.6 example)',
      {
        kind: 'finished',
        result: runResult({
          status: 'wait_user',
          completionReason: 'wait_user',
          completionToolName: 'ask_user',
          waitReason: 'Which directory should I clean: build/ or dist/?',
          partialOutput: 'I found two build output folders.',
          tokenUsage: usage,
        }),
      },
      {
        status: 'interrupted',
        finalOutput: 'Which directory should I clean: build/ or dist/?',
        completionReason: 'wait_user',
        completionToolName: 'ask_user',
        partialOutput: 'I found two build output folders.',
        tokenUsage: projectedUsage,
      },
    ],
    [
      'cancelled by turn/interrupt',
      {
        kind: 'finished',
        result: runResult({
          status: 'failed',
          completionReason: 'cancelled',
          completionToolName: null,
          error: 'turn interrupted',
          partialOutput: 'Half',
          tokenUsage: usage,
        }),
      },
      {
        status: 'interrupted',
        finalOutput: 'turn interrupted',
        error: 'turn interrupted',
        completionReason: 'cancelled',
        partialOutput: 'Half',
        tokenUsage: projectedUsage,
      },
    ],
    [
      'failed model call',
      {
        kind: 'finished',
        result: runResult({
          status: 'failed',
          completionReason: 'failed',
          completionToolName: null,
          error: 'llm request failed: HTTP 503',
          tokenUsage: usage,
        }),
      },
      {
        status: 'failed',
        finalOutput: 'llm request failed: HTTP 503',
        error: 'llm request failed: HTTP 503',
        completionReason: 'failed',
        tokenUsage: projectedUsage,
      },
    ],
    [
      'failed without an error text becomes "Turn failed"',
      {
        kind: 'finished',
        result: runResult({
          status: 'failed',
          completionReason: 'failed',
          completionToolName: null,
          tokenUsage: usage,
        }),
      },
      { status: 'failed', error: 'Turn failed', completionReason: 'failed', tokenUsage: projectedUsage },
    ],
    [
      'max cycles: error defaults to "max_cycles", finalOutput is the max-cycles answer',
      {
        kind: 'finished',
        result: runResult({
          status: 'max_cycles',
          completionReason: 'max_cycles',
          completionToolName: null,
          finalAnswer: 'Reached max cycles without finish signal.',
          partialOutput: 'last',
          tokenUsage: usage,
        }),
      },
      {
        status: 'failed',
        finalOutput: 'Reached max cycles without finish signal.',
        error: 'max_cycles',
        completionReason: 'max_cycles',
        partialOutput: 'last',
        tokenUsage: projectedUsage,
      },
    ],
    [
      'budget exhausted carries the budget objects verbatim',
      {
        kind: 'finished',
        result: runResult({
          status: 'failed',
          completionReason: 'budget_exhausted',
          completionToolName: null,
          error: 'Run budget exhausted.',
          tokenUsage: usage,
          budgetUsage: { cycles: 2, tool_calls_by_name: { bash: 1 } },
          budgetExhaustion: { dimension: 'cycles', limit: 2 },
        }),
      },
      {
        status: 'failed',
        finalOutput: 'Run budget exhausted.',
        error: 'Run budget exhausted.',
        completionReason: 'budget_exhausted',
        tokenUsage: projectedUsage,
        budgetUsage: { cycles: 2, tool_calls_by_name: { bash: 1 } },
        budgetExhaustion: { dimension: 'cycles', limit: 2 },
      },
    ],
    [
      'rejected run: empty ledger, no finalOutput',
      { kind: 'rejected', error: 'agent resolution failed' },
      {
        status: 'failed',
        error: 'agent resolution failed',
        completionReason: 'failed',
        tokenUsage: emptyProtocolTokenUsage(),
      },
    ],
    [
      'rejected run with an empty message',
      { kind: 'rejected', error: '' },
      {
        status: 'failed',
        error: 'Turn failed',
        completionReason: 'failed',
        tokenUsage: emptyProtocolTokenUsage(),
      },
    ],
    [
      'event stream threw, no result',
      { kind: 'streamFailed', error: 'journal read failed', result: null },
      {
        status: 'failed',
        error: 'journal read failed',
        completionReason: 'failed',
        tokenUsage: emptyProtocolTokenUsage(),
      },
    ],
    [
      'event stream threw, result still available: its usage and outputs, the exception as error',
      {
        kind: 'streamFailed',
        error: 'journal read failed',
        result: runResult({ finalAnswer: 'Done.', tokenUsage: usage }),
      },
      {
        status: 'failed',
        finalOutput: 'Done.',
        error: 'journal read failed',
        completionReason: 'failed',
        completionToolName: 'task_finish',
        tokenUsage: projectedUsage,
      },
    ],
  ])('%s', (_name, outcome, expected) => {
    const projection = projectTurnCompleted(identity, outcome);
    const { status, ...storedExpected } = expected;
    expect(projection.status).toBe(status);
    expect(projection.params).toEqual({ ...identity, ...expected });
    expect(projection.result).toEqual(storedExpected);
    // Optional members are omitted, never null.
    expect(Object.values(projection.params)).not.toContain(null);
    expect(Object.values(projection.params)).not.toContain(undefined);
  });

  it('an empty ledger projects as zero counts with accounting_missing cache (docs/spec/runtime.md §12.4)', () => {
    expect(projectTurnCompleted(identity, { kind: 'rejected', error: 'x' }).params.tokenUsage).toEqual({
      schema_version: 'vv-agent.task-token-usage.v1',
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      reasoning_tokens: 0,
      cache_usage: {
        status: 'accounting_missing',
        read_input_tokens: null,
        write_input_tokens: null,
        uncached_input_tokens: null,
        source: 'aggregate',
      },
      cycles: [],
    });
  });

  it('takes only threadId, turnId and runId from a richer identity (shutdown passes its RunningTurn)', () => {
    const runningTurn = {
      ...identity,
      finished: Promise.resolve(),
      handle: { cancel: () => undefined },
      ownerConnectionId: 'conn_1',
    };
    const outcome: TurnOutcome = { kind: 'finished', result: runResult({ finalAnswer: 'Done.' }) };
    const projection = projectTurnCompleted(runningTurn, outcome);
    expect(projection).toEqual(projectTurnCompleted(identity, outcome));
    expect(Object.keys(projection.params)).not.toContain('ownerConnectionId');
  });
});
