/** Manual compaction, `Runner.compact` (docs/spec/history.md §1): completed, skipped, failed, interrupted. */
import { COMPACTION_INSTRUCTIONS, SUMMARY_PREFIX } from '../../../../src/runtime/compaction/summary-request';
import { parseRunEvent } from '../../../../src/runtime/events/run-event-reader';
import type { Message } from '../../../../src/runtime/messages';
import { Runner } from '../../../../src/runtime/runner';
import { eventsOf, lifecycleTypes, makeAgent, tempDir, waitForEvent } from '../runtime-test-kit';
import { smallContextModel, usage } from './compaction-test-support';

const SYSTEM: Message = { role: 'system', content: 'Do the task, then finish.' };

/* context_length 10000 → the verbatim tail holds 3000 tokens: a2 and u2 fit, a1 (3000) does not. */
const HISTORY: Message[] = [
  { role: 'user', content: 'u'.repeat(8000) },
  { role: 'assistant', content: 'a'.repeat(12000) },
  { role: 'user', content: 'second question' },
  { role: 'assistant', content: 'second answer' },
];

describe('manual compaction (Runner.compact)', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  function runner(model: ReturnType<typeof smallContextModel>): Runner {
    return new Runner({ modelProvider: model.provider, workspace: workspace.path });
  }

  it('summarizes the older history, keeps the recent messages and completes without an answer', async () => {
    const model = smallContextModel([{ content: '  the summary  ', usage: usage(5000) }], 10000);
    const result = await runner(model).compact(makeAgent(), { initialMessages: HISTORY }).result();

    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].tools).toEqual([]);
    expect(model.requests[0].messages).toEqual([
      SYSTEM,
      HISTORY[0],
      HISTORY[1],
      { role: 'user', content: COMPACTION_INSTRUCTIONS },
    ]);

    const compacted: Message[] = [
      { role: 'user', content: `${SUMMARY_PREFIX}the summary` },
      HISTORY[2],
      HISTORY[3],
    ];
    expect(result).toMatchObject({
      status: 'completed',
      completionReason: null,
      finalAnswer: null,
      finalOutput: null,
      error: null,
      input: '',
      newMessages: [],
      compactedHistory: compacted,
    });
    expect(lifecycleTypes(result.events)).toEqual([
      'run_started',
      'agent_started',
      'context_compaction_started',
      'model_call_started',
      'model_call_completed',
      'context_compaction_completed',
      'run_completed',
    ]);
    expect(eventsOf(result.events, 'context_compaction_completed')[0]).toMatchObject({
      trigger: 'manual',
      summary: 'the summary',
      messages_before: 4,
      messages_after: 3,
      history: compacted,
    });
    const terminal = eventsOf(result.events, 'run_completed')[0];
    expect(terminal).toMatchObject({ status: 'completed', final_output: null });
    expect(terminal.completion_reason).toBeUndefined();
    expect(result.tokenUsage.model_calls).toEqual([
      expect.objectContaining({ operation: 'context_compaction', cycle_index: 1, status: 'completed' }),
    ]);
    for (const event of result.events)
      expect(parseRunEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('summarizes everything when the whole history would fit the verbatim tail', async () => {
    const model = smallContextModel([{ content: 'all of it' }], 128000);
    const short = HISTORY.slice(2).concat(HISTORY.slice(2));
    const result = await runner(model).compact(makeAgent(), { initialMessages: short }).result();
    expect(model.requests[0].messages).toEqual([
      SYSTEM,
      ...short,
      { role: 'user', content: COMPACTION_INSTRUCTIONS },
    ]);
    expect(result.compactedHistory).toEqual([{ role: 'user', content: `${SUMMARY_PREFIX}all of it` }]);
  });

  it('fewer than 2 user messages: completed with skipped and no model call', async () => {
    const model = smallContextModel([{ content: 'must not be used' }], 10000);
    const history = HISTORY.slice(2);
    const result = await runner(model).compact(makeAgent(), { initialMessages: history }).result();
    expect(model.requests).toHaveLength(0);
    expect(model.scripted.remaining).toBe(1);
    expect(result.status).toBe('completed');
    expect(result.tokenUsage.model_calls).toEqual([]);
    expect(result.compactedHistory).toBeUndefined();
    expect(lifecycleTypes(result.events)).toEqual([
      'run_started',
      'agent_started',
      'context_compaction_started',
      'context_compaction_completed',
      'run_completed',
    ]);
    const [completed] = eventsOf(result.events, 'context_compaction_completed');
    expect(completed).toMatchObject({
      trigger: 'manual',
      skipped: true,
      messages_before: 2,
      messages_after: 2,
    });
    expect(completed.estimated_tokens_after).toBe(completed.estimated_tokens_before);
    expect(completed.summary).toBeUndefined();
    expect(completed.history).toBeUndefined();
  });

  it('a failed summary call fails the run with its error and leaves the history', async () => {
    const model = smallContextModel([{ error: 'model down' }], 10000);
    const result = await runner(model).compact(makeAgent(), { initialMessages: HISTORY }).result();
    expect(result).toMatchObject({
      status: 'failed',
      completionReason: 'failed',
      error: 'llm request failed: model down',
    });
    expect(result.compactedHistory).toBeUndefined();
    expect(eventsOf(result.events, 'context_compaction_failed')).toEqual([
      expect.objectContaining({ trigger: 'manual', error: 'llm request failed: model down' }),
    ]);
    expect(eventsOf(result.events, 'run_failed')[0]).toMatchObject({
      error: 'llm request failed: model down',
    });
  });

  it('an empty summary is a failure', async () => {
    const model = smallContextModel([{ content: '   ' }], 10000);
    const result = await runner(model).compact(makeAgent(), { initialMessages: HISTORY }).result();
    expect(result).toMatchObject({ status: 'failed', error: 'compaction summary is empty' });
    expect(result.compactedHistory).toBeUndefined();
  });

  it('interrupting leaves the history unchanged: cancelled, no compacted history', async () => {
    const model = smallContextModel([{ content: 'late summary', delay_ms: 60_000 }], 10000);
    const handle = runner(model).compact(makeAgent(), { initialMessages: HISTORY });
    await waitForEvent(handle.events(), 'model_call_started');
    expect(handle.cancel()).toBe(true);
    const result = await handle.result();
    expect(result).toMatchObject({
      status: 'failed',
      completionReason: 'cancelled',
      error: 'Run was cancelled.',
    });
    expect(result.compactedHistory).toBeUndefined();
    expect(eventsOf(result.events, 'context_compaction_failed')).toEqual([
      expect.objectContaining({ trigger: 'manual', interrupted: true, error: 'Run was cancelled.' }),
    ]);
    expect(eventsOf(result.events, 'context_compaction_completed')).toEqual([]);
    expect(handle.state()).toMatchObject({ status: 'cancelled', cancelled: true });
  });
});
