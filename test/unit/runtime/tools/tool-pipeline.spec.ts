/** The per-call pipeline through a real run: every pre-execution and execution error code (§9.6–§9.8). */
import { finish } from '../../../../src/runtime/model/scripted-model';
import { Runner } from '../../../../src/runtime/runner';
import type { RunResult } from '../../../../src/runtime/run-config';
import type { ToolDefinition } from '../../../../src/runtime/tools/types';
import {
  diagnostics,
  eventsOf,
  makeAgent,
  rawResponseProvider,
  recordingTool,
  scriptedRunner,
  tempDir,
  toolCall,
  toolMessages,
} from '../runtime-test-kit';

describe('tool pipeline', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  async function runOneCall(
    tool: ToolDefinition | null,
    call: ReturnType<typeof toolCall>,
    config: Parameters<Runner['run']>[2] = {},
  ): Promise<RunResult> {
    const { runner } = scriptedRunner([{ tool_calls: [call] }, finish('done')], workspace.path);
    return runner.run(makeAgent({ tools: tool ? [tool] : [] }), 'go', config);
  }

  function completed(result: RunResult) {
    return eventsOf(result.events, 'tool_call_completed')[0];
  }

  it('invalid_tool_arguments: sorted issues, handler not called, no approval asked', async () => {
    const tool = recordingTool('probe', {
      needsApproval: true,
      parameters: {
        type: 'object',
        properties: { value: { type: 'string' }, count: { type: 'integer' } },
        required: ['value'],
      },
    });
    const result = await runOneCall(tool, toolCall('c1', 'probe', { count: 'x', extra: 1 }));
    expect(tool.calls).toEqual([]);
    expect(eventsOf(result.events, 'approval_requested')).toEqual([]);
    expect(completed(result)).toMatchObject({
      error_code: 'invalid_tool_arguments',
      execution_started: false,
    });
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Tool arguments do not match the declared schema',
      error_code: 'invalid_tool_arguments',
      issues: [
        { instance_path: '', schema_path: '/additionalProperties', rule: 'additionalProperties' },
        { instance_path: '', schema_path: '/required', rule: 'required' },
        { instance_path: '/count', schema_path: '/properties/count/type', rule: 'type' },
      ],
    });
    expect(result.status).toBe('completed');
  });

  it('invalid_arguments_json and invalid_arguments_payload: results without lifecycle events', async () => {
    const provider = rawResponseProvider([
      {
        toolCalls: [
          { id: 'a', type: 'function', function: { name: 'probe', arguments: 'not json' } },
          { id: 'b', type: 'function', function: { name: 'probe', arguments: '[1,2]' } },
        ],
      },
      { toolCalls: [{ id: 'f', type: 'function', function: { name: 'task_finish', arguments: '{}' } }] },
    ]);
    const tool = recordingTool('probe');
    const result = await new Runner({ modelProvider: provider, workspace: workspace.path }).run(
      makeAgent({ tools: [tool] }),
      'x',
    );
    expect(eventsOf(result.events, 'tool_call_planned').map((event) => event.tool_call_id)).toEqual(['f']);
    const [a, b] = toolMessages(result);
    expect(JSON.parse(a.content)).toMatchObject({ ok: false, error_code: 'invalid_arguments_json' });
    expect(JSON.parse(a.content).error).toMatch(/^Invalid tool arguments JSON: /);
    expect(JSON.parse(b.content)).toEqual({
      ok: false,
      error: 'Tool arguments must decode to an object',
      error_code: 'invalid_arguments_payload',
    });
    expect(diagnostics(result.events, 'tool_result').map((event) => event.details.error_code)).toEqual([
      'invalid_arguments_json',
      'invalid_arguments_payload',
      null,
    ]);
    expect(tool.calls).toEqual([]);
    expect(result.finalAnswer).toBe('Task completed');
  });

  it.each([
    ['disallowedTools', { toolPolicy: { disallowedTools: ['probe'] } }, true],
    ['allowedTools without it', { toolPolicy: { allowedTools: ['task_finish'] } }, true],
    ['registered built-in the agent does not list', {}, false],
  ])('tool_not_allowed: %s', async (_label, config, listed) => {
    const tool = recordingTool('probe');
    const name = listed ? 'probe' : 'read_file';
    const result = await runOneCall(tool, toolCall('c1', name, listed ? {} : { path: 'x' }), config);
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: `Tool ${name} is not allowed for these arguments.`,
      error_code: 'tool_not_allowed',
      tool_name: name,
    });
    expect(eventsOf(result.events, 'tool_call_started').map((event) => event.tool_name)).toEqual([
      'task_finish',
    ]);
    expect(tool.calls).toEqual([]);
  });

  it('tool_not_allowed for an unknown tool has no tool_metadata', async () => {
    const result = await runOneCall(null, toolCall('c1', 'ghost'));
    expect(completed(result)).toMatchObject({ tool_name: 'ghost', error_code: 'tool_not_allowed' });
    expect(completed(result)).not.toHaveProperty('tool_metadata');
    expect(eventsOf(result.events, 'tool_call_planned')[0]).not.toHaveProperty('tool_metadata');
  });

  it('tool_approval_required when no approval provider is configured', async () => {
    const tool = recordingTool('probe', { toolMetadata: { side_effect: 'execute' } });
    const result = await runOneCall(tool, toolCall('c1', 'probe'));
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Approval required for tool probe.',
      error_code: 'tool_approval_required',
    });
    expect(completed(result)).toMatchObject({ execution_started: false, duration_ms: null });
    expect(tool.calls).toEqual([]);
    expect(result.status).toBe('completed');
  });

  it('approval policy never runs execute tools without asking', async () => {
    const tool = recordingTool('probe', { toolMetadata: { side_effect: 'execute' } });
    const result = await runOneCall(tool, toolCall('c1', 'probe'), { approvalPolicy: 'never' });
    expect(tool.calls).toEqual([{}]);
    expect(completed(result)).toMatchObject({ status: 'success', execution_started: true });
  });

  it('tool_execution_failed when the handler throws', async () => {
    const tool = recordingTool('probe', {
      handler: async () => {
        throw new Error('disk on fire');
      },
    });
    const result = await runOneCall(tool, toolCall('c1', 'probe'));
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Tool execution failed (probe): disk on fire',
      error_code: 'tool_execution_failed',
    });
    expect(completed(result)).toMatchObject({ execution_started: true, error_code: 'tool_execution_failed' });
    expect(typeof completed(result).duration_ms).toBe('number');
  });

  it('tool_timeout after timeoutMs, and the handler signal is aborted', async () => {
    let aborted = false;
    const tool = recordingTool('probe', {
      timeoutMs: 30,
      handler: (ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ type: 'text', text: 'late' });
          });
        }),
    });
    const result = await runOneCall(tool, toolCall('c1', 'probe'));
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Tool probe timed out after 0.03 seconds.',
      error_code: 'tool_timeout',
    });
    expect(completed(result)).toMatchObject({ execution_started: true, error_code: 'tool_timeout' });
    expect(aborted).toBe(true);
  });

  it('maps text, json and error outputs', async () => {
    const outputs = [
      { type: 'text' as const, text: 'plain' },
      { type: 'json' as const, value: { a: [1, 2], b: 'c' } },
      { type: 'error' as const, message: 'nope', code: 'my_code', retryable: true },
    ];
    const tools = outputs.map((output, index) => recordingTool(`t${index}`, {}, output));
    const { runner } = scriptedRunner(
      [{ tool_calls: tools.map((tool, index) => toolCall(`c${index}`, tool.name)) }, finish('done')],
      workspace.path,
    );
    const result = await runner.run(makeAgent({ tools }), 'x');
    expect(
      toolMessages(result)
        .slice(0, 3)
        .map((message) => message.content),
    ).toEqual([
      'plain',
      '{"a":[1,2],"b":"c"}',
      '{"ok":false,"error":"nope","error_code":"my_code","retryable":true}',
    ]);
    expect(
      eventsOf(result.events, 'tool_call_completed').map((event) => [event.status, event.error_code]),
    ).toEqual([
      ['success', null],
      ['success', null],
      ['error', 'my_code'],
      ['success', null],
    ]);
  });

  it('skipped_due_to_finish: later calls of the message get diagnostics only', async () => {
    const tool = recordingTool('probe');
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('f', 'task_finish', { message: 'bye' }), toolCall('p', 'probe')] }],
      workspace.path,
    );
    const result = await runner.run(makeAgent({ tools: [tool] }), 'x');
    expect(eventsOf(result.events, 'tool_call_planned').map((event) => event.tool_call_id)).toEqual(['f']);
    expect(JSON.parse(toolMessages(result)[1].content)).toEqual({
      ok: false,
      error: 'Tool skipped because a previous tool finished the task.',
      error_code: 'skipped_due_to_finish',
    });
    expect(diagnostics(result.events, 'tool_result').map((event) => event.details.error_code)).toEqual([
      null,
      'skipped_due_to_finish',
    ]);
    expect(tool.calls).toEqual([]);
    expect(result.finalAnswer).toBe('bye');
  });

  it('skipped_due_to_wait_user after ask_user', async () => {
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('q', 'ask_user', { question: 'Which?' }), toolCall('f', 'task_finish')] }],
      workspace.path,
    );
    const result = await runner.run(makeAgent(), 'x');
    expect(JSON.parse(toolMessages(result)[1].content).error_code).toBe('skipped_due_to_wait_user');
    expect(result).toMatchObject({
      status: 'wait_user',
      waitReason: 'Which?',
      completionToolName: 'ask_user',
    });
  });

  it('declared tool_metadata appears normalized on planned, started and completed events', async () => {
    const tool = recordingTool('probe', {
      toolMetadata: { side_effect: 'read', capability_tags: [' b ', 'a', 'b'] },
    });
    const result = await runOneCall(tool, toolCall('c1', 'probe'));
    const expected = {
      side_effect: 'read',
      idempotency: 'unknown',
      terminal: false,
      result_retention: 'archive',
      capability_tags: ['a', 'b'],
      cost_dimensions: [],
    };
    for (const type of ['tool_call_planned', 'tool_call_started', 'tool_call_completed'] as const) {
      expect(eventsOf(result.events, type)[0]).toHaveProperty('tool_metadata', expected);
    }
  });

  it('output_preview is cut to 4096 UTF-8 bytes at a code point boundary', async () => {
    const text = 'a' + '€'.repeat(2000); // 1 + 6000 bytes
    const tool = recordingTool('probe', {}, { type: 'text', text });
    const result = await runOneCall(tool, toolCall('c1', 'probe'));
    const event = completed(result);
    expect(event.output_truncated).toBe(true);
    expect(Buffer.byteLength(event.output_preview ?? '', 'utf8')).toBe(4096);
    expect(event.output_preview).toBe('a' + '€'.repeat(1365));
    expect(toolMessages(result)[0].content).toBe(text);
  });

  it('a truncated result gets the canonical recovery line on its tool message', async () => {
    const tool = recordingTool(
      'probe',
      {},
      {
        type: 'result',
        result: {
          content: 'head…tail',
          status: 'success',
          directive: 'continue',
          error_code: null,
          metadata: {},
          truncated: true,
          truncation_reason: 'output_limit',
          artifact: {
            path: 'a.txt',
            media_type: 'text/plain',
            encoding: 'utf-8',
            size_bytes: 10,
            sha256: 'ff',
          },
          original_bytes: 100,
          visible_bytes: 11,
        },
      },
    );
    const result = await runOneCall(tool, toolCall('c1', 'probe'));
    expect(toolMessages(result)[0].content).toBe(
      'head…tail\n{"vv_agent_recovery":{"artifact":{"encoding":"utf-8","media_type":"text/plain","path":"a.txt","sha256":"ff","size_bytes":10},"original_bytes":100,"truncated":true,"truncation_reason":"output_limit","visible_bytes":11}}',
    );
  });

  it('generates ids for blank call ids and strips spaces from names', async () => {
    const tool = recordingTool('probe');
    const provider = rawResponseProvider([
      { toolCalls: [{ id: '  ', type: 'function', function: { name: ' pro be ', arguments: '' } }] },
      { toolCalls: [{ id: 'f', type: 'function', function: { name: 'task_finish', arguments: '{}' } }] },
    ]);
    const result = await new Runner({ modelProvider: provider, workspace: workspace.path }).run(
      makeAgent({ tools: [tool] }),
      'x',
    );
    expect(tool.calls).toEqual([{}]);
    expect(eventsOf(result.events, 'tool_call_started')[0]).toMatchObject({
      tool_call_id: 'call_generated_0',
      tool_name: 'probe',
    });
    const assistant = result.newMessages[1];
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_generated_0', type: 'function', function: { name: 'probe', arguments: '{}' } },
      ],
    });
    expect(result.newMessages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_generated_0' });
  });

  it('tool handlers see the run context and shared state', async () => {
    const seen: unknown[] = [];
    const tool = recordingTool('probe', {
      handler: async (ctx) => {
        seen.push({ ...ctx, signal: ctx.signal instanceof AbortSignal });
        return { type: 'text', text: 'ok' };
      },
    });
    const result = await runOneCall(tool, toolCall('c1', 'probe'), {
      metadata: { session_id: 's1', k: 'v' },
    });
    expect(seen).toEqual([
      {
        runId: result.runId,
        agentName: 'tester',
        toolCallId: 'c1',
        toolName: 'probe',
        workspace: workspace.path,
        metadata: { session_id: 's1', k: 'v' },
        sharedState: { todo_list: [] },
        signal: true,
      },
    ]);
  });
});
