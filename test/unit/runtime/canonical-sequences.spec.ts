/** Canonical event sequences of docs/spec/runtime.md §6.4, produced with the scripted model. */
import { parseRunEvent } from '../../../src/runtime/events/run-event-reader';
import { finish } from '../../../src/runtime/model/scripted-model';
import type { ApprovalProvider } from '../../../src/runtime/approvals/types';
import { Runner } from '../../../src/runtime/runner';
import {
  diagnostics,
  eventsOf,
  rawResponseProvider,
  lifecycleTypes,
  makeAgent,
  recordingTool,
  scriptedRunner,
  tempDir,
  toolCall,
} from './runtime-test-kit';

describe('canonical run event sequences (§6.4)', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('finish: one cycle ending with task_finish', async () => {
    const { runner } = scriptedRunner([finish('All done.')], workspace.path);
    const result = await runner.run(makeAgent(), 'do it');

    expect(lifecycleTypes(result.events)).toEqual([
      'run_started',
      'agent_started',
      'cycle_started',
      'model_call_started',
      'assistant_delta',
      'model_call_completed',
      'tool_call_planned',
      'tool_call_started',
      'tool_call_completed',
      'run_completed',
    ]);
    expect(result.events.map((event) => event.type).slice(6, 8)).toEqual(['diagnostic', 'tool_call_planned']);
    const terminal = eventsOf(result.events, 'run_completed')[0];
    expect(terminal).toMatchObject({
      status: 'completed',
      final_output: 'All done.',
      completion_reason: 'tool_finish',
      completion_tool_name: 'task_finish',
      cycle_index: 1,
    });
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
      status: 'success',
      directive: 'finish',
      error_code: null,
      execution_started: true,
      output_preview: '{"ok":true,"message":"All done."}',
      output_truncated: false,
    });
    expect(eventsOf(result.events, 'tool_call_started')[0].arguments).toEqual({ message: 'All done.' });
    expect(result).toMatchObject({
      status: 'completed',
      completionReason: 'tool_finish',
      completionToolName: 'task_finish',
      finalAnswer: 'All done.',
      finalOutput: 'All done.',
      error: null,
    });
  });

  it('every produced event passes the strict reader and shares the run envelope', async () => {
    const { runner } = scriptedRunner(
      [
        { content: 'thinking', reasoning_content: 'hmm', tool_calls: [toolCall('c1', 'probe')] },
        finish('ok'),
      ],
      workspace.path,
    );
    const agent = makeAgent({ tools: [recordingTool('probe')] });
    const result = await runner.run(agent, 'go', { metadata: { session_id: 'thread_1' } });
    for (const event of result.events) {
      expect(parseRunEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
      expect(event).toMatchObject({
        version: 'v2',
        run_id: result.runId,
        trace_id: result.traceId,
        agent_name: 'tester',
        session_id: 'thread_1',
      });
      expect(event.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    }
    expect(result.runId).toMatch(/^run_[0-9a-f]{32}$/);
    expect(result.traceId).toMatch(/^trace_[0-9a-f]{32}$/);
    expect(new Set(result.events.map((event) => event.event_id)).size).toBe(result.events.length);
    expect(eventsOf(result.events, 'reasoning_delta')).toHaveLength(1);
  });

  it('approval allowed: requested → resolved → started → completed → next cycle', async () => {
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('deployed')],
      workspace.path,
    );
    const deploy = recordingTool('deploy', { needsApproval: true });
    const provider: ApprovalProvider = {
      shouldRequest: () => true,
      decide: async () => ({ action: 'allow' }),
    };
    const result = await runner.run(makeAgent({ tools: [deploy] }), 'ship', { approvalProvider: provider });
    expect(lifecycleTypes(result.events)).toEqual([
      'run_started',
      'agent_started',
      'cycle_started',
      'model_call_started',
      'model_call_completed',
      'tool_call_planned',
      'approval_requested',
      'approval_resolved',
      'tool_call_started',
      'tool_call_completed',
      'cycle_started',
      'model_call_started',
      'assistant_delta',
      'model_call_completed',
      'tool_call_planned',
      'tool_call_started',
      'tool_call_completed',
      'run_completed',
    ]);
    expect(deploy.calls).toEqual([{}]);
  });

  it('denied: the call completes without starting and the next cycle follows', async () => {
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('skipped')],
      workspace.path,
    );
    const deploy = recordingTool('deploy', { needsApproval: true });
    const provider: ApprovalProvider = {
      shouldRequest: () => true,
      decide: async () => ({ action: 'deny', reason: 'not today' }),
    };
    const result = await runner.run(makeAgent({ tools: [deploy] }), 'ship', { approvalProvider: provider });
    expect(lifecycleTypes(result.events).slice(5, 10)).toEqual([
      'tool_call_planned',
      'approval_requested',
      'approval_resolved',
      'tool_call_completed',
      'cycle_started',
    ]);
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
      status: 'error',
      directive: 'continue',
      error_code: 'tool_approval_denied',
      execution_started: false,
      duration_ms: null,
    });
    expect(deploy.calls).toEqual([]);
  });

  it('rejected: an unknown tool is planned and completed with tool_not_allowed, never started', async () => {
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'nope')] }, finish('ok')],
      workspace.path,
    );
    const result = await runner.run(makeAgent(), 'x');
    expect(lifecycleTypes(result.events).slice(5, 8)).toEqual([
      'tool_call_planned',
      'tool_call_completed',
      'cycle_started',
    ]);
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
      error_code: 'tool_not_allowed',
      execution_started: false,
      duration_ms: null,
    });
  });

  it('bad JSON: no lifecycle events, only the tool_result diagnostic; the history carries {}', async () => {
    const provider = rawResponseProvider([
      {
        toolCalls: [
          { id: 'c1', type: 'function', function: { name: 'probe', arguments: '{"value":' } },
          { id: 'c2', type: 'function', function: { name: 'probe', arguments: '[1, 2]' } },
        ],
      },
      {
        content: 'done',
        toolCalls: [{ id: 'f', type: 'function', function: { name: 'task_finish', arguments: '' } }],
      },
    ]);
    const runner = new Runner({ modelProvider: provider, workspace: workspace.path });
    const result = await runner.run(makeAgent({ tools: [recordingTool('probe')] }), 'x');
    expect(lifecycleTypes(result.events).slice(4, 6)).toEqual(['model_call_completed', 'cycle_started']);
    const [report] = diagnostics(result.events, 'tool_result');
    expect(report.details).toMatchObject({
      tool_call_id: 'c1',
      error_code: 'invalid_arguments_json',
      status: 'error',
    });
    // docs/spec/runtime.md §14.1: every call goes back to the model as compact JSON of its decoded arguments.
    const assistant = provider.requests[1].messages.find((message) => message.role === 'assistant');
    expect(assistant).toMatchObject({
      tool_calls: [
        { id: 'c1', function: { name: 'probe', arguments: '{}' } },
        { id: 'c2', function: { name: 'probe', arguments: '{}' } },
      ],
    });
  });

  it('no tool + continue: the next cycle starts after the response', async () => {
    const { runner } = scriptedRunner([{ content: 'thinking' }, finish('done')], workspace.path);
    const result = await runner.run(makeAgent(), 'x');
    expect(lifecycleTypes(result.events).slice(2, 7)).toEqual([
      'cycle_started',
      'model_call_started',
      'assistant_delta',
      'model_call_completed',
      'cycle_started',
    ]);
  });

  it('ask_user: completes with wait_user', async () => {
    const { runner } = scriptedRunner(
      [{ content: 'Need a choice.', tool_calls: [toolCall('q', 'ask_user', { question: ' Which one? ' })] }],
      workspace.path,
    );
    const result = await runner.run(makeAgent(), 'x');
    expect(lifecycleTypes(result.events).slice(-4)).toEqual([
      'tool_call_planned',
      'tool_call_started',
      'tool_call_completed',
      'run_completed',
    ]);
    expect(eventsOf(result.events, 'run_completed')[0]).toMatchObject({
      status: 'wait_user',
      final_output: 'Which one?',
      completion_reason: 'wait_user',
      completion_tool_name: 'ask_user',
      partial_output: 'Need a choice.',
    });
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({ directive: 'wait_user' });
  });

  it('max cycles: run_failed with error max_cycles', async () => {
    const { runner } = scriptedRunner([{ content: 'a' }, { content: 'b' }], workspace.path);
    const result = await runner.run(makeAgent(), 'x', { maxCycles: 2 });
    const types = lifecycleTypes(result.events);
    expect(types[types.length - 1]).toBe('run_failed');
    expect(eventsOf(result.events, 'run_failed')[0]).toMatchObject({
      error: 'max_cycles',
      completion_reason: 'max_cycles',
      partial_output: 'b',
    });
  });

  it('LLM error: model_call_started → model_call_failed → run_failed', async () => {
    const { runner } = scriptedRunner([{ error: 'boom' }], workspace.path);
    const result = await runner.run(makeAgent(), 'x');
    expect(lifecycleTypes(result.events)).toEqual([
      'run_started',
      'agent_started',
      'cycle_started',
      'model_call_started',
      'model_call_failed',
      'run_failed',
    ]);
    expect(eventsOf(result.events, 'run_failed')[0]).toMatchObject({
      error: 'llm request failed: boom',
      completion_reason: 'failed',
    });
    expect(eventsOf(result.events, 'model_call_failed')[0]).toMatchObject({
      error_code: 'model_request_failed',
      outcome: 'ambiguous',
    });
  });

  it('model-call events carry call/operation ids, attempt, backend and model', async () => {
    const { runner } = scriptedRunner([{ content: 'x' }, finish('y')], workspace.path);
    const result = await runner.run(makeAgent(), 'x');
    const started = eventsOf(result.events, 'model_call_started');
    expect(
      started.map((event) => [event.call_id, event.operation_id, event.attempt, event.cycle_index]),
    ).toEqual([
      ['op_model_cycle_1_main:attempt:1', 'op_model_cycle_1_main', 1, 1],
      ['op_model_cycle_2_main:attempt:1', 'op_model_cycle_2_main', 1, 2],
    ]);
    expect(started[0]).toMatchObject({ operation: 'agent_cycle', backend: 'scripted', model: 'demo-model' });
    expect(started[0]).not.toHaveProperty('usage');
    expect(eventsOf(result.events, 'model_call_completed')[0].usage).toMatchObject({
      usage_source: 'accounting_missing',
      input_tokens: null,
    });
  });

  it('the debug send-message run (§15.4) matches its documented sequence', async () => {
    const { runner } = scriptedRunner([finish('hello')], workspace.path);
    const agent = makeAgent({
      name: 'assistant',
      instructions: 'Answer the user, then finish.',
      model: { type: 'named', model: 'demo-model' },
    });
    const result = await runner.run(agent, 'hello', { maxCycles: 10 });
    expect(eventsOf(result.events, 'assistant_delta').map((event) => event.delta)).toEqual(['hello']);
    expect(eventsOf(result.events, 'run_started')[0].input).toBe('hello');
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
      status: 'success',
      directive: 'finish',
    });
  });
});
