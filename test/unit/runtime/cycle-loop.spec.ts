/** The cycle loop (docs/spec/runtime.md §11): outcomes, no-tool policies, control tools, history and new messages. */
import type { Message } from '../../../src/runtime/messages';
import { finish, ScriptedModelProvider } from '../../../src/runtime/model/scripted-model';
import type { ModelProvider, ResolvedModelConfig } from '../../../src/runtime/model/types';
import { Runner } from '../../../src/runtime/runner';
import { missingUsage } from '../../../src/runtime/usage/normalize';
import {
  diagnostics,
  eventsOf,
  lifecycleTypes,
  makeAgent,
  recordingTool,
  scriptedRunner,
  tempDir,
  toolCall,
  toolMessages,
} from './runtime-test-kit';

describe('cycle loop', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  describe('max cycles', () => {
    it('ends with the max_cycles outcome, a warning diagnostic and continuation hints in between', async () => {
      const { runner } = scriptedRunner(
        [{ content: 'one' }, { content: '' }, { content: 'three' }],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x', { maxCycles: 3 });
      expect(result).toMatchObject({
        status: 'max_cycles',
        completionReason: 'max_cycles',
        completionToolName: null,
        finalAnswer: 'Reached max cycles without finish signal.',
        finalOutput: 'Reached max cycles without finish signal.',
        error: null,
        partialOutput: 'three',
      });
      const [warning] = diagnostics(result.events, 'run_max_cycles');
      expect(warning.level).toBe('warning');
      expect(result.newMessages.map((message) => [message.role, message.content])).toEqual([
        ['user', 'x'],
        ['assistant', 'one'],
        ['user', 'Continue. If the task is complete, call task_finish.'],
        ['assistant', ''],
        ['user', 'Continue. If the task is complete, call task_finish.'],
        ['assistant', 'three'],
      ]);
      expect(eventsOf(result.events, 'run_failed')[0]).toMatchObject({
        error: 'max_cycles',
        status: 'max_cycles',
        cycle_index: 3,
      });
    });

    it('max cycles reached after a tool batch', async () => {
      const probe = recordingTool('probe');
      const { runner } = scriptedRunner([{ tool_calls: [toolCall('c', 'probe')] }], workspace.path);
      const result = await runner.run(makeAgent({ tools: [probe] }), 'x', { maxCycles: 1 });
      expect(result.status).toBe('max_cycles');
      expect(result.partialOutput).toBeNull();
      expect(probe.calls).toEqual([{}]);
    });
  });

  describe('cycle_llm_response diagnostic (§6.5)', () => {
    it("reports each response's preview, tool calls and the model's finish reason", async () => {
      const { runner } = scriptedRunner(
        [{ content: 'looking', tool_calls: [toolCall('call_1', 'task_finish', { message: 'ok' })] }],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x', { maxCycles: 2 });
      expect(diagnostics(result.events, 'cycle_llm_response').map((event) => event.details)).toEqual([
        {
          assistant_preview: 'looking',
          tool_call_names: ['task_finish'],
          tool_call_count: 1,
          finish_reason: 'tool_calls',
        },
      ]);
    });

    it('previews the first 200 characters of a long response, keeping surrogate pairs whole', async () => {
      const content = `${'a'.repeat(199)}\u{1F600}${'b'.repeat(5_000)}`;
      const { runner } = scriptedRunner(
        [{ content, tool_calls: [toolCall('call_1', 'task_finish', { message: 'ok' })] }],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x', { maxCycles: 2 });
      const [response] = diagnostics(result.events, 'cycle_llm_response');
      expect(response.details.assistant_preview).toBe(`${'a'.repeat(199)}\u{1F600}`);
    });
  });

  describe('between a response and its tools', () => {
    it('lets what a host queued on the completed response run before the first tool executes', async () => {
      // A host forwards a response's last deltas in queued callbacks; tool work must not hold them.
      let forwarded = false;
      let forwardedBeforeTool: boolean | undefined;
      const probe = recordingTool('probe', {
        handler: async () => {
          forwardedBeforeTool = forwarded;
          return { type: 'text', text: 'ok' };
        },
      });
      const { runner } = scriptedRunner(
        [{ content: 'last words', tool_calls: [toolCall('c', 'probe')] }, finish('done')],
        workspace.path,
      );
      const handle = runner.start(makeAgent({ tools: [probe] }), 'x');
      for await (const event of handle.events()) {
        if (event.type === 'model_call_completed' && event.cycle_index === 1) {
          process.nextTick(() => {
            forwarded = true;
          });
        }
      }
      await handle.result();
      expect(forwardedBeforeTool).toBe(true);
    });
  });

  describe('no-tool policies (§11.3)', () => {
    it.each([
      [
        'finish',
        'Here it is.',
        { status: 'completed', completionReason: 'no_tool_finish', finalAnswer: 'Here it is.' },
      ],
      [
        'finish',
        '',
        { status: 'completed', completionReason: 'no_tool_finish', finalAnswer: '', finalOutput: '' },
      ],
      [
        'wait_user',
        'Which file?',
        {
          status: 'wait_user',
          completionReason: 'wait_user',
          waitReason: 'Which file?',
          partialOutput: 'Which file?',
        },
      ],
      [
        'wait_user',
        '  ',
        {
          status: 'wait_user',
          completionReason: 'wait_user',
          waitReason: 'No tool call and runtime is waiting for user.',
          partialOutput: null,
          completionToolName: null,
        },
      ],
    ] as const)('%s with %j', async (policy, content, expected) => {
      const { runner } = scriptedRunner([{ content }], workspace.path);
      const result = await runner.run(makeAgent(), 'x', { noToolPolicy: policy });
      expect(result).toMatchObject(expected);
      const terminal = result.events[result.events.length - 1];
      expect(terminal.type).toBe('run_completed');
    });
  });

  describe('control tools (§10.3)', () => {
    it('ask_user content is compact JSON in the contract key order', async () => {
      const { runner } = scriptedRunner(
        [
          {
            tool_calls: [
              toolCall('q', 'ask_user', {
                question: '  ',
                options: [' a ', 'b', 'a', ''],
                selection_type: 'multi',
                allow_custom_options: true,
              }),
            ],
          },
        ],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x');
      expect(toolMessages(result)[0].content).toBe(
        '{"allow_custom_options":true,"options":["a","b"],"question":"Need user input","selection_type":"multi"}',
      );
      expect(result.waitReason).toBe('Need user input');
    });

    it('ask_user defaults: no options member, single selection', async () => {
      const { runner } = scriptedRunner(
        [{ tool_calls: [toolCall('q', 'ask_user', { question: 'Go?' })] }],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x');
      expect(toolMessages(result)[0].content).toBe(
        '{"allow_custom_options":false,"question":"Go?","selection_type":"single"}',
      );
    });

    it('ask_user with an invalid selection_type is rejected by the schema', async () => {
      const { runner } = scriptedRunner(
        [
          { tool_calls: [toolCall('q', 'ask_user', { question: 'Go?', selection_type: 'many' })] },
          finish('ok'),
        ],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x');
      expect(JSON.parse(toolMessages(result)[0].content).error_code).toBe('invalid_tool_arguments');
    });

    it('task_finish: blank message becomes "Task completed"; exposed_files recorded', async () => {
      const { runner } = scriptedRunner(
        [{ tool_calls: [toolCall('f', 'task_finish', { message: ' ', exposed_files: [' out.txt ', ''] })] }],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x');
      expect(toolMessages(result)[0].content).toBe('{"ok":true,"message":"Task completed"}');
      expect(result.finalAnswer).toBe('Task completed');
    });

    it('task_finish refuses while todos are incomplete unless require_all_todos_completed is false', async () => {
      const todoWriter = recordingTool('plan', {
        handler: async (ctx) => {
          ctx.sharedState.todo_list = [
            { id: '1', title: 'Write code', status: 'completed', priority: 'high' },
            { id: '2', title: 'Write tests', status: 'in_progress', priority: 'medium' },
            { id: '3', title: 'Ship', status: 'pending', priority: 'low' },
          ];
          return { type: 'text', text: 'planned' };
        },
      });
      const { runner } = scriptedRunner(
        [
          { tool_calls: [toolCall('p', 'plan'), toolCall('f1', 'task_finish', { message: 'done?' })] },
          {
            tool_calls: [
              toolCall('f2', 'task_finish', { message: 'done anyway', require_all_todos_completed: false }),
            ],
          },
        ],
        workspace.path,
      );
      const result = await runner.run(makeAgent({ tools: [todoWriter] }), 'x');
      expect(toolMessages(result)[1].content).toBe(
        '{"ok":false,"error_code":"todo_incomplete","error":"Cannot finish task while todo items are incomplete","incomplete_todos":["Write tests","Ship"]}',
      );
      expect(eventsOf(result.events, 'tool_call_completed')[1]).toMatchObject({
        status: 'error',
        directive: 'continue',
        error_code: 'todo_incomplete',
      });
      expect(result.finalAnswer).toBe('done anyway');
    });

    it('a custom tool with a finish directive: final answer from the content JSON message', async () => {
      const closer = recordingTool(
        'closer',
        {},
        {
          type: 'result',
          result: {
            content: '{"message":"closed by tool"}',
            status: 'success',
            directive: 'finish',
            error_code: null,
            metadata: {},
          },
        },
      );
      const { runner } = scriptedRunner([{ tool_calls: [toolCall('c', 'closer')] }], workspace.path);
      const result = await runner.run(makeAgent({ tools: [closer] }), 'x');
      expect(result).toMatchObject({ completionToolName: 'closer', finalAnswer: 'closed by tool' });
    });
  });

  describe('messages and history (§11.6)', () => {
    it('newMessages: user, assistant with tool calls and reasoning, tool results', async () => {
      const probe = recordingTool('probe');
      const { runner } = scriptedRunner(
        [
          {
            content: 'Looking.',
            reasoning_content: 'think',
            tool_calls: [toolCall('c1', 'probe', { value: 'v' })],
          },
          finish('Found.'),
        ],
        workspace.path,
      );
      const result = await runner.run(makeAgent({ tools: [probe] }), 'find it');
      expect(result.newMessages).toEqual([
        { role: 'user', content: 'find it' },
        {
          role: 'assistant',
          content: 'Looking.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'probe', arguments: '{"value":"v"}' } },
          ],
          reasoning_content: 'think',
        },
        { role: 'tool', tool_call_id: 'c1', content: 'probe ran' },
        {
          role: 'assistant',
          content: 'Found.',
          tool_calls: [
            {
              id: 'finish',
              type: 'function',
              function: { name: 'task_finish', arguments: '{"message":"Found."}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'finish', content: '{"ok":true,"message":"Found."}' },
      ]);
    });

    it('a model failure mid-run: failed outcome with the last assistant text; newMessages stay valid', async () => {
      const probe = recordingTool('probe');
      const { runner } = scriptedRunner(
        [{ content: 'Step one.', tool_calls: [toolCall('c1', 'probe')] }, { error: 'HTTP 500: oops' }],
        workspace.path,
      );
      const result = await runner.run(makeAgent({ tools: [probe] }), 'x');
      expect(result).toMatchObject({
        status: 'failed',
        completionReason: 'failed',
        error: 'llm request failed: HTTP 500: oops',
        partialOutput: 'Step one.',
        finalOutput: 'llm request failed: HTTP 500: oops',
      });
      expect(result.newMessages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    });

    it('an exhausted script fails definitively with the exact message', async () => {
      const { runner } = scriptedRunner([], workspace.path);
      const result = await runner.run(makeAgent(), 'x');
      expect(result.error).toBe('scripted response queue is empty');
      expect(eventsOf(result.events, 'model_call_failed')[0]).toMatchObject({
        outcome: 'definitive',
        error_code: 'model_request_failed',
      });
      expect(result.tokenUsage.model_calls[0]).toMatchObject({
        status: 'failed',
        error_code: 'model_request_failed',
      });
    });

    it('prompt-too-long errors are definitive and labelled prompt_too_long', async () => {
      const { runner } = scriptedRunner(
        [{ error: 'HTTP 400: maximum context length exceeded' }],
        workspace.path,
      );
      const result = await runner.run(makeAgent(), 'x');
      expect(eventsOf(result.events, 'model_call_failed')[0]).toMatchObject({
        outcome: 'definitive',
        error_code: 'prompt_too_long',
      });
    });

    it('initial messages: system messages dropped, blank assistant messages not sent, history before input', async () => {
      const requests: Message[][] = [];
      const { runner } = scriptedRunner(
        [
          (request) => {
            requests.push(request.messages);
            return finish('ok');
          },
        ],
        workspace.path,
      );
      const history: Message[] = [
        { role: 'system', content: 'old system prompt' },
        { role: 'user', content: 'earlier question' },
        { role: 'assistant', content: '  ' },
        { role: 'assistant', content: 'earlier answer' },
      ];
      await runner.run(makeAgent({ instructions: 'SYSTEM' }), 'now', { initialMessages: history });
      expect(requests[0]).toEqual([
        { role: 'system', content: 'SYSTEM' },
        { role: 'user', content: 'earlier question' },
        { role: 'assistant', content: 'earlier answer' },
        { role: 'user', content: 'now' },
      ]);
    });

    // With automatic compaction (on by default) such a history is compacted first, trimming being its
    // fallback (test/unit/runtime/compaction); switched off, setup trimming alone applies.
    it('without auto compaction: trims the oldest history segments to the context length, history_trimmed', async () => {
      const scripted = new ScriptedModelProvider();
      const small = (ref: Parameters<ModelProvider['resolve']>[0]): ResolvedModelConfig => ({
        ...scripted.resolve(ref),
        context_length: 1200,
        max_output_tokens: 200,
      });
      const requests: Message[][] = [];
      scripted.push((request) => {
        requests.push(request.messages);
        return finish('ok');
      });
      const provider: ModelProvider = {
        resolve: small,
        client: (resolved) => scripted.client(resolved),
        defaultModelRef: () => scripted.defaultModelRef(),
      };
      const big = 'x'.repeat(1600); // 404 tokens per message
      const history: Message[] = [
        { role: 'assistant', content: big },
        { role: 'user', content: big },
        { role: 'assistant', content: big },
        { role: 'user', content: 'recent' },
        { role: 'assistant', content: 'recent answer' },
      ];
      const runner = new Runner({ modelProvider: provider, workspace: workspace.path });
      const result = await runner.run(makeAgent(), 'now', {
        initialMessages: history,
        autoCompaction: false,
      });
      expect(requests[0].map((message) => message.content)).toEqual([
        'Do the task, then finish.',
        'recent',
        'recent answer',
        'now',
      ]);
      const types = result.events.map((event) => event.type);
      expect(types.slice(0, 3)).toEqual(['run_started', 'agent_started', 'diagnostic']);
      expect(diagnostics(result.events, 'history_trimmed')[0].details).toEqual({
        dropped_messages: 3,
        kept_messages: 2,
      });
      expect(lifecycleTypes(result.events)).not.toContain('history_trimmed');
    });

    it('no trimming without a context length problem: no history_trimmed diagnostic', async () => {
      const { runner } = scriptedRunner([finish('ok')], workspace.path);
      const result = await runner.run(makeAgent(), 'x', {
        initialMessages: [{ role: 'user', content: 'hello' }],
      });
      expect(diagnostics(result.events, 'history_trimmed')).toEqual([]);
    });
  });

  it('token usage: normalized scripted usage per call in the result ledger', async () => {
    const { runner } = scriptedRunner(
      [
        { content: 'a', usage: { prompt_tokens: 905, completion_tokens: 41, total_tokens: 946 } },
        { ...finish('b'), usage: { prompt_tokens: 1010, completion_tokens: 29, total_tokens: 1039 } },
      ],
      workspace.path,
    );
    const result = await runner.run(makeAgent(), 'x');
    expect(result.tokenUsage).toMatchObject({
      schema_version: 'vv-agent.task-token-usage.v2',
      input_tokens: 1915,
      output_tokens: 70,
      total_tokens: 1985,
      reasoning_tokens: null,
    });
    expect(result.tokenUsage.model_calls.map((call) => call.usage.provider_usage)).toEqual([
      { prompt_tokens: 905, completion_tokens: 41, total_tokens: 946 },
      { prompt_tokens: 1010, completion_tokens: 29, total_tokens: 1039 },
    ]);
    expect(eventsOf(result.events, 'model_call_completed')[0].usage.usage_source).toBe('provider_reported');
  });

  it('assistant_delta counters are cumulative per model call', async () => {
    const provider: ModelProvider = {
      resolve: (ref) => new ScriptedModelProvider().resolve(ref),
      defaultModelRef: () => ({ type: 'named', model: 'm' }),
      client: () => ({
        async complete(_request, callbacks) {
          callbacks.onContent('Hello');
          callbacks.onContent(', wörld');
          callbacks.onReasoning('r');
          callbacks.onToolCallNamed({ toolCallId: 'f', toolName: 'task_finish', index: 0 });
          callbacks.onToolCallArguments({
            toolCallId: 'f',
            toolName: 'task_finish',
            index: 0,
            fragment: '{}',
            argumentsChars: 2,
          });
          return {
            content: 'Hello, wörld',
            toolCalls: [{ id: 'f', type: 'function', function: { name: 'task_finish', arguments: '{}' } }],
            usage: missingUsage(),
          };
        },
      }),
    };
    const result = await new Runner({ modelProvider: provider, workspace: workspace.path }).run(
      makeAgent(),
      'x',
    );
    expect(
      eventsOf(result.events, 'assistant_delta').map((event) => [
        event.delta,
        event.content_chars,
        event.estimated_tokens,
      ]),
    ).toEqual([
      ['Hello', 5, 2],
      [', wörld', 12, 3],
    ]);
    expect(eventsOf(result.events, 'reasoning_delta')[0]).toMatchObject({
      reasoning_chars: 1,
      estimated_tokens: 1,
    });
    expect(eventsOf(result.events, 'model_tool_call_started')[0]).toMatchObject({
      tool_call_id: 'f',
      tool_name: 'task_finish',
      tool_call_index: 0,
      cycle_index: 1,
    });
    expect(eventsOf(result.events, 'model_tool_call_progress')[0]).toMatchObject({
      arguments_chars: 2,
      estimated_tokens: 1,
    });
  });
});
