/** Automatic compaction before a model call (docs/spec/history.md §1) with the scripted model and a small context. */
import { estimatePromptTokens } from '../../../../src/runtime/compaction/prompt-estimate';
import { COMPACTION_INSTRUCTIONS, SUMMARY_PREFIX } from '../../../../src/runtime/compaction/summary-request';
import { parseRunEvent } from '../../../../src/runtime/events/run-event-reader';
import type { Message } from '../../../../src/runtime/messages';
import { finish } from '../../../../src/runtime/model/scripted-model';
import type { ScriptStep } from '../../../../src/runtime/model/scripted-model';
import { Runner } from '../../../../src/runtime/runner';
import { diagnostics, eventsOf, lifecycleTypes, makeAgent, tempDir, waitForEvent } from '../runtime-test-kit';
import { fetchCall, sizedTool, smallContextModel, usage } from './compaction-test-support';

/*
 * context_length 4000 → compaction above 3200 estimated tokens; the verbatim tail holds 1200.
 * Call 1 reports 100 prompt tokens; before call 2: 100 + ceil(6030 / 4) = 1608 (no compaction).
 * Call 2 reports 3000; before call 3: 3000 + ceil(1032 / 4) = 3258 > 3200 → compaction first.
 */
const OLD_HISTORY: Message[] = [
  { role: 'user', content: 'old task' },
  { role: 'assistant', content: 'o'.repeat(4000) },
];
const BEFORE_COMPACTION = 3000 + Math.ceil(1032 / 4);

function steps(summaryStep: ScriptStep): ScriptStep[] {
  return [
    { content: 'fetching big', tool_calls: [fetchCall('c1', 6000)], usage: usage(100) },
    { content: 'fetching small', tool_calls: [fetchCall('c2', 1000)], usage: usage(3000) },
    summaryStep,
    { ...finish('done'), usage: usage(900) },
  ];
}

describe('automatic compaction', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  function start(summaryStep: ScriptStep) {
    const model = smallContextModel(steps(summaryStep), 4000, 1000);
    const runner = new Runner({ modelProvider: model.provider, workspace: workspace.path });
    const handle = runner.start(makeAgent({ tools: [sizedTool] }), 'new task', {
      initialMessages: OLD_HISTORY,
      approvalPolicy: 'never',
    });
    return { model, handle };
  }

  it('summarizes the older history before the call that would pass 80 % and goes on', async () => {
    const { model, handle } = start({ content: 'SUMMARY TEXT', usage: usage(1700) });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('done');

    // The summary request: no tools, system + the history being compacted + the instructions.
    const [, , summaryRequest, nextRequest] = model.requests;
    expect(summaryRequest.tools).toEqual([]);
    expect(summaryRequest.messages.map((m) => [m.role, m.content.slice(0, 14)])).toEqual([
      ['system', 'Do the task, t'],
      ['user', 'old task'],
      ['assistant', 'oooooooooooooo'],
      ['user', 'new task'],
      ['assistant', 'fetching big'],
      ['tool', 'rrrrrrrrrrrrrr'],
      ['user', COMPACTION_INSTRUCTIONS.slice(0, 14)],
    ]);
    expect(summaryRequest.messages.at(-1)?.content).toBe(COMPACTION_INSTRUCTIONS);

    // The next normal request: the summary message, the turn's user message, the recent call and result.
    const compacted: Message[] = [
      { role: 'user', content: `${SUMMARY_PREFIX}SUMMARY TEXT` },
      { role: 'user', content: 'new task' },
      result.newMessages[3],
      result.newMessages[4],
    ];
    expect(nextRequest.messages).toEqual([
      { role: 'system', content: 'Do the task, then finish.' },
      ...compacted,
    ]);
    expect(compacted[2]).toMatchObject({ role: 'assistant', content: 'fetching small' });
    expect(compacted[3]).toMatchObject({ role: 'tool', tool_call_id: 'c2' });
    expect(nextRequest.tools.map((tool) => tool.function.name)).toContain('fetch');

    // Events: started → summary call (no deltas) → completed with the payload and the history.
    const types = lifecycleTypes(result.events);
    const from = types.indexOf('context_compaction_started');
    expect(types.slice(from, from + 5)).toEqual([
      'context_compaction_started',
      'model_call_started',
      'model_call_completed',
      'context_compaction_completed',
      'model_call_started',
    ]);
    expect(eventsOf(result.events, 'assistant_delta').map((event) => event.delta)).not.toContain(
      'SUMMARY TEXT',
    );
    expect(eventsOf(result.events, 'context_compaction_started')).toEqual([
      expect.objectContaining({ trigger: 'auto', cycle_index: 3 }),
    ]);
    const [completed] = eventsOf(result.events, 'context_compaction_completed');
    expect(completed).toMatchObject({
      trigger: 'auto',
      summary: 'SUMMARY TEXT',
      messages_before: 7,
      messages_after: 4,
      estimated_tokens_before: BEFORE_COMPACTION,
      estimated_tokens_after: estimatePromptTokens(nextRequest.messages, nextRequest.tools, null),
      history: compacted,
      cycle_index: 3,
    });
    expect(completed.skipped).toBeUndefined();
    expect(completed.estimated_tokens_after).toBeLessThan(completed.estimated_tokens_before);
    const summaryCall = eventsOf(result.events, 'model_call_completed')[2];
    expect(summaryCall).toMatchObject({
      operation: 'context_compaction',
      operation_id: 'op_model_cycle_3_compaction',
      call_id: 'op_model_cycle_3_compaction:attempt:1',
      cycle_index: 3,
    });

    // Usage: the summary call is one more record of the run's ledger.
    expect(result.tokenUsage.model_calls.map((call) => call.operation)).toEqual([
      'agent_cycle',
      'agent_cycle',
      'context_compaction',
      'agent_cycle',
    ]);
    expect(result.tokenUsage.input_tokens).toBe(100 + 3000 + 1700 + 900);

    // The result: newMessages as always; compactedHistory replaces the stored conversation.
    expect(result.newMessages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(result.compactedHistory).toEqual([...compacted, ...result.newMessages.slice(5)]);

    // Every event stays valid wire v2.
    for (const event of result.events)
      expect(parseRunEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('a failed summary call: failed event, today’s trimming, the run goes on without compaction', async () => {
    const { model, handle } = start({ error: 'summary boom' });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('done');
    expect(eventsOf(result.events, 'context_compaction_failed')).toEqual([
      expect.objectContaining({ trigger: 'auto', error: 'llm request failed: summary boom' }),
    ]);
    expect(eventsOf(result.events, 'context_compaction_completed')).toEqual([]);
    expect(eventsOf(result.events, 'model_call_failed')[0]).toMatchObject({
      operation: 'context_compaction',
    });
    // Trimming dropped the oldest segment from the model context; the current turn stayed whole.
    expect(diagnostics(result.events, 'history_trimmed').at(-1)?.details).toEqual({
      dropped_messages: 2,
      kept_messages: 5,
    });
    expect(model.requests[3].messages.map((m) => [m.role, m.content.slice(0, 8)])).toEqual([
      ['system', 'Do the t'],
      ['user', 'new task'],
      ['assistant', 'fetching'],
      ['tool', 'rrrrrrrr'],
      ['assistant', 'fetching'],
      ['tool', 'rrrrrrrr'],
    ]);
    expect(result.compactedHistory).toBeUndefined();
    expect(result.newMessages).toHaveLength(7);
  });

  it('interrupting the compaction leaves the history unchanged and cancels the run', async () => {
    const { handle } = start({ content: 'never', delay_ms: 60_000 });
    await waitForEvent(handle.events(), 'context_compaction_started');
    expect(handle.cancel('stop now')).toBe(true);
    const result = await handle.result();
    expect(result.completionReason).toBe('cancelled');
    expect(eventsOf(result.events, 'context_compaction_failed')).toEqual([
      expect.objectContaining({ trigger: 'auto', error: 'stop now', interrupted: true }),
    ]);
    expect(eventsOf(result.events, 'model_call_failed').at(-1)).toMatchObject({
      operation: 'context_compaction',
      error_code: 'model_request_cancelled',
    });
    expect(lifecycleTypes(result.events).at(-1)).toBe('run_cancelled');
    expect(result.compactedHistory).toBeUndefined();
    expect(result.newMessages.map((m) => m.content.slice(0, 8))).toEqual([
      'new task',
      'fetching',
      'rrrrrrrr',
      'fetching',
      'rrrrrrrr',
    ]);
  });

  it('below 80 % nothing is compacted', async () => {
    const model = smallContextModel([finish('done')], 4000, 1000);
    const runner = new Runner({ modelProvider: model.provider, workspace: workspace.path });
    const result = await runner.run(makeAgent(), 'small', { initialMessages: OLD_HISTORY.slice(0, 1) });
    expect(result.events.filter((event) => event.type.startsWith('context_compaction'))).toEqual([]);
    expect(result.compactedHistory).toBeUndefined();
    expect('compactedHistory' in result).toBe(false);
  });

  describe('a history past 80 % at the start of a turn', () => {
    // context 1200 (trigger 960), 200 reserved for output: ≈ 1097 estimated tokens at setup.
    const history: Message[] = [
      { role: 'user', content: 'p'.repeat(1400) },
      { role: 'assistant', content: 'q'.repeat(1500) },
      { role: 'user', content: 'recent' },
      { role: 'assistant', content: 'recent answer' },
    ];
    const system: Message = { role: 'system', content: 'Do the task, then finish.' };

    async function run(summaryStep: ScriptStep) {
      const model = smallContextModel([summaryStep, finish('ok')], 1200, 200);
      const runner = new Runner({ modelProvider: model.provider, workspace: workspace.path });
      const result = await runner.run(makeAgent(), 'now', { initialMessages: history });
      return { model, result };
    }

    it('is compacted before the first call instead of trimmed at setup', async () => {
      const { model, result } = await run({ content: 'S' });
      expect(diagnostics(result.events, 'history_trimmed')).toEqual([]);
      expect(model.requests[0].messages).toEqual([
        system,
        history[0],
        history[1],
        { role: 'user', content: COMPACTION_INSTRUCTIONS },
      ]);
      expect(model.requests[1].messages).toEqual([
        system,
        { role: 'user', content: `${SUMMARY_PREFIX}S` },
        history[2],
        history[3],
        { role: 'user', content: 'now' },
      ]);
      expect(eventsOf(result.events, 'context_compaction_started')[0].cycle_index).toBe(1);
      expect(result.compactedHistory?.slice(0, 4)).toEqual(model.requests[1].messages.slice(1));
    });

    it('falls back to the trimming the run setup would have done when the summary fails', async () => {
      const { model, result } = await run({ error: 'no summary' });
      expect(result.status).toBe('completed');
      expect(model.requests[1].messages).toEqual([
        system,
        history[2],
        history[3],
        { role: 'user', content: 'now' },
      ]);
      expect(diagnostics(result.events, 'history_trimmed')[0].details).toEqual({
        dropped_messages: 2,
        kept_messages: 3,
      });
      expect(result.compactedHistory).toBeUndefined();
    });

    it('autoCompaction: false keeps the setup trimming alone', async () => {
      const model = smallContextModel([finish('ok')], 1200, 200);
      const runner = new Runner({ modelProvider: model.provider, workspace: workspace.path });
      const result = await runner.run(makeAgent(), 'now', {
        initialMessages: history,
        autoCompaction: false,
      });
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0].messages).toEqual([
        system,
        history[2],
        history[3],
        { role: 'user', content: 'now' },
      ]);
      expect(result.events.filter((event) => event.type.startsWith('context_compaction'))).toEqual([]);
    });
  });
});
