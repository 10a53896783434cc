/** Cancellation (docs/spec/runtime.md §4 cancel, §5.2, §11.5). */
import { finish } from '../../../src/runtime/model/scripted-model';
import {
  eventsOf,
  lifecycleTypes,
  makeAgent,
  recordingTool,
  scriptedRunner,
  tempDir,
  toolCall,
  toolMessages,
  waitForEvent,
} from './runtime-test-kit';

describe('cancellation', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('during a slow scripted step: the request is aborted and the run ends cancelled', async () => {
    const { runner, provider } = scriptedRunner(
      [{ content: 'first', tool_calls: [] }, { content: 'slow reply', delay_ms: 60_000 }, finish('never')],
      workspace.path,
    );
    const handle = runner.start(makeAgent(), 'x');
    await waitForEvent(handle.events(), 'model_call_started', 2);
    expect(handle.cancel('turn interrupted')).toBe(true);
    expect(handle.cancel('again')).toBe(false);
    expect(handle.state()).toEqual({ status: 'running', done: false, cancelled: true, error: null });
    const result = await handle.result();

    expect(lifecycleTypes(result.events).slice(-2)).toEqual(['model_call_failed', 'run_cancelled']);
    expect(eventsOf(result.events, 'model_call_failed')[0]).toMatchObject({
      error_code: 'model_request_cancelled',
      cycle_index: 2,
    });
    expect(eventsOf(result.events, 'run_cancelled')[0]).toMatchObject({
      reason: 'turn interrupted',
      completion_reason: 'cancelled',
      partial_output: 'first',
      cycle_index: 2,
    });
    expect(result).toMatchObject({
      status: 'failed',
      completionReason: 'cancelled',
      error: 'turn interrupted',
      finalAnswer: null,
      waitReason: null,
      partialOutput: 'first',
      finalOutput: 'turn interrupted',
    });
    expect(result.tokenUsage.model_calls.map((call) => [call.status, call.error_code])).toEqual([
      ['completed', null],
      ['ambiguous', 'model_request_cancelled'],
    ]);
    expect(handle.cancel()).toBe(false);
    expect(handle.state()).toEqual({
      status: 'cancelled',
      done: true,
      cancelled: true,
      error: 'turn interrupted',
    });
    expect(provider.remaining).toBe(1);
  });

  it('a blank reason becomes "Run was cancelled."; a cancel right after start ends before any cycle', async () => {
    const { runner } = scriptedRunner([finish('x')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    expect(handle.cancel('  ')).toBe(true);
    const result = await handle.result();
    expect(lifecycleTypes(result.events)).toEqual(['run_started', 'agent_started', 'run_cancelled']);
    expect(eventsOf(result.events, 'run_cancelled')[0]).not.toHaveProperty('cycle_index');
    expect(result.error).toBe('Run was cancelled.');
    expect(result.newMessages).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('late cancels never change a finished result', async () => {
    const { runner } = scriptedRunner([finish('done')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    const result = await handle.result();
    expect(handle.cancel('late')).toBe(false);
    expect(await handle.result()).toBe(result);
    expect(result.status).toBe('completed');
    expect(handle.state().status).toBe('completed');
  });

  it('a running handler receives the abort signal; the rest of the batch is repaired with run_ended', async () => {
    let sawAbort = false;
    const slow = recordingTool('slow', {
      handler: (ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve({ type: 'error', message: 'stopped', code: 'tool_execution_cancelled' });
          });
        }),
    });
    const after = recordingTool('after');
    const { runner } = scriptedRunner(
      [{ content: 'Running.', tool_calls: [toolCall('s', 'slow'), toolCall('a', 'after')] }],
      workspace.path,
    );
    const handle = runner.start(makeAgent({ tools: [slow, after] }), 'x');
    await waitForEvent(handle.events(), 'tool_call_started');
    handle.cancel();
    const result = await handle.result();
    expect(sawAbort).toBe(true);
    expect(after.calls).toEqual([]);
    expect(eventsOf(result.events, 'tool_call_planned').map((event) => event.tool_call_id)).toEqual(['s']);
    expect(result.newMessages).toEqual([
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        content: 'Running.',
        tool_calls: [
          { id: 's', type: 'function', function: { name: 'slow', arguments: '{}' } },
          { id: 'a', type: 'function', function: { name: 'after', arguments: '{}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 's',
        content: '{"ok":false,"error":"stopped","error_code":"tool_execution_cancelled","retryable":false}',
      },
      {
        role: 'tool',
        tool_call_id: 'a',
        content:
          '{"ok":false,"error":"Tool call did not run because the run ended.","error_code":"run_ended"}',
      },
    ]);
    expect(result.completionReason).toBe('cancelled');
  });

  it('a handler that ignores the signal is awaited; state shows the accepted cancel meanwhile', async () => {
    let release: () => void = () => undefined;
    const stubborn = recordingTool('stubborn', {
      handler: () =>
        new Promise((resolve) => {
          release = () => resolve({ type: 'text', text: 'finished anyway' });
        }),
    });
    const { runner } = scriptedRunner([{ tool_calls: [toolCall('s', 'stubborn')] }], workspace.path);
    const handle = runner.start(makeAgent({ tools: [stubborn] }), 'x');
    await waitForEvent(handle.events(), 'tool_call_started');
    expect(handle.cancel()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handle.state()).toEqual({ status: 'running', done: false, cancelled: true, error: null });
    release();
    const result = await handle.result();
    expect(toolMessages(result)[0].content).toBe('finished anyway');
    expect(lifecycleTypes(result.events).slice(-2)).toEqual(['tool_call_completed', 'run_cancelled']);
  });

  it('a thrown handler error after cancellation is reported as tool_execution_cancelled', async () => {
    const throwing = recordingTool('throwing', {
      handler: (ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    const { runner } = scriptedRunner([{ tool_calls: [toolCall('t', 'throwing')] }], workspace.path);
    const handle = runner.start(makeAgent({ tools: [throwing] }), 'x');
    await waitForEvent(handle.events(), 'tool_call_started');
    handle.cancel();
    const result = await handle.result();
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Operation was cancelled',
      error_code: 'tool_execution_cancelled',
    });
    expect(eventsOf(result.events, 'tool_call_completed')[0].execution_started).toBe(true);
  });
});
