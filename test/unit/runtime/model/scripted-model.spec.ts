import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finish, ScriptedModelProvider } from '../../../../src/runtime/model/scripted-model';
import { loadScriptedModelFile } from '../../../../src/runtime/model/scripted-model-file';
import { LlmError, type LlmRequest, type StreamCallbacks } from '../../../../src/runtime/model/types';
import { makeAgent, scriptedRunner, tempDir } from '../runtime-test-kit';

function recordingCallbacks(): StreamCallbacks & { fragments: string[] } {
  const fragments: string[] = [];
  return {
    fragments,
    onContent: (fragment) => fragments.push(`content:${fragment}`),
    onReasoning: (fragment) => fragments.push(`reasoning:${fragment}`),
    onToolCallNamed: () => fragments.push('named'),
    onToolCallArguments: () => fragments.push('arguments'),
  };
}

describe('ScriptedModelProvider (§15)', () => {
  const provider = new ScriptedModelProvider();
  const resolved = provider.resolve({ type: 'named', model: 'any-name' });
  const request = (): LlmRequest => ({ model: resolved, messages: [], tools: [], settings: {} });

  it('resolves any named model with the fixed capabilities', () => {
    expect(resolved).toEqual({
      backend: 'scripted',
      requested_model: 'any-name',
      selected_model: 'any-name',
      model_id: 'any-name',
      display_name: null,
      context_length: 128000,
      max_output_tokens: 16384,
      function_call_available: true,
      response_format_available: true,
      native_multimodal: false,
      endpoint_options: [],
    });
    expect(provider.defaultModelRef()).toEqual({ type: 'named', model: 'demo-model' });
    expect(provider.resolve({ type: 'resolved', config: resolved })).toBe(resolved);
    expect(provider.resolve({ type: 'backend_model', backend: 'scripted', model: 'm' }).model_id).toBe('m');
    expect(() => provider.resolve({ type: 'backend_model', backend: 'openai', model: 'm' })).toThrow(
      'model backend mismatch: requested `openai`, provider `scripted`',
    );
    const custom = new ScriptedModelProvider({ backend: 'moonshot', defaultModel: 'kimi-k3' });
    expect(custom.defaultModelRef()).toEqual({ type: 'named', model: 'kimi-k3' });
    expect(custom.resolve({ type: 'named', model: 'x' }).backend).toBe('moonshot');
  });

  it('streams exactly one reasoning and one content fragment and returns the tool calls', async () => {
    const scripted = new ScriptedModelProvider({
      steps: [
        {
          content: 'Hi',
          reasoning_content: 'Hmm',
          tool_calls: [{ id: 'c', name: 'x', arguments: { a: 1 } }],
        },
      ],
    });
    const callbacks = recordingCallbacks();
    const response = await scripted
      .client(resolved)
      .complete(request(), callbacks, new AbortController().signal);
    expect(callbacks.fragments).toEqual(['reasoning:Hmm', 'content:Hi']);
    expect(response).toMatchObject({
      content: 'Hi',
      reasoningContent: 'Hmm',
      toolCalls: [{ id: 'c', type: 'function', function: { name: 'x', arguments: '{"a":1}' } }],
    });
    expect(response.usage).toMatchObject({ usage_source: 'accounting_missing', provider_usage: {} });
  });

  it('empty content produces no fragment and returns ""', async () => {
    const scripted = new ScriptedModelProvider({ steps: [{}] });
    const callbacks = recordingCallbacks();
    const response = await scripted
      .client(resolved)
      .complete(request(), callbacks, new AbortController().signal);
    expect(callbacks.fragments).toEqual([]);
    expect(response.content).toBe('');
    expect(response).not.toHaveProperty('reasoningContent');
  });

  it('usage is normalized for the resolved backend', async () => {
    const scripted = new ScriptedModelProvider({
      backend: 'moonshot',
      steps: [{ usage: { prompt_tokens: 10 } }],
    });
    const moonshot = scripted.resolve({ type: 'named', model: 'k' });
    const response = await scripted
      .client(moonshot)
      .complete({ ...request(), model: moonshot }, recordingCallbacks(), new AbortController().signal);
    expect(response.usage).toMatchObject({
      usage_source: 'provider_reported',
      input_tokens: 10,
      cache_usage: { status: 'provider_reported', read_input_tokens: 0 },
    });
  });

  it('error steps, function steps and an empty queue', async () => {
    const seen: LlmRequest[] = [];
    const scripted = new ScriptedModelProvider({
      steps: [
        { error: 'rate limited' },
        (req) => {
          seen.push(req);
          return { content: 'from function' };
        },
        () => {
          throw new Error('step exploded');
        },
      ],
    });
    const client = scripted.client(resolved);
    const signal = new AbortController().signal;
    await expect(client.complete(request(), recordingCallbacks(), signal)).rejects.toThrow(
      new LlmError('llm request failed: rate limited'),
    );
    await expect(client.complete(request(), recordingCallbacks(), signal)).resolves.toMatchObject({
      content: 'from function',
    });
    expect(seen).toHaveLength(1);
    await expect(client.complete(request(), recordingCallbacks(), signal)).rejects.toThrow(
      'llm request failed: step exploded',
    );
    const empty = client.complete(request(), recordingCallbacks(), signal);
    await expect(empty).rejects.toThrow('scripted response queue is empty');
    await expect(empty).rejects.toMatchObject({ definitive: true });
  });

  it('delay_ms is aborted by the signal with model_request_cancelled', async () => {
    const scripted = new ScriptedModelProvider({ steps: [{ content: 'slow', delay_ms: 60_000 }] });
    const controller = new AbortController();
    const pending = scripted.client(resolved).complete(request(), recordingCallbacks(), controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'model_request_cancelled' });
  });

  it('one FIFO is shared by every client() call and every run', async () => {
    const workspace = await tempDir();
    try {
      const { runner, provider: shared } = scriptedRunner(
        [finish('first'), finish('second')],
        workspace.path,
      );
      expect(shared.client(resolved)).toBe(shared.client(resolved));
      expect((await runner.run(makeAgent(), 'a')).finalAnswer).toBe('first');
      expect((await runner.run(makeAgent(), 'b')).finalAnswer).toBe('second');
      expect((await runner.run(makeAgent(), 'c')).error).toBe('scripted response queue is empty');
    } finally {
      await workspace.cleanup();
    }
  });

  it('finish(message) builds the task_finish step', () => {
    expect(finish('bye')).toEqual({
      content: 'bye',
      tool_calls: [{ id: 'finish', name: 'task_finish', arguments: { message: 'bye' } }],
    });
  });
});

describe('loadScriptedModelFile (§15.3)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('loads the documented example', async () => {
    const path = join(dir.path, 'script.json');
    const steps = [
      {
        content: "I'll run the test suite.",
        tool_calls: [{ id: 'call_Zp4Qe7Lm', name: 'bash', arguments: { command: 'npm test' } }],
        usage: {
          prompt_tokens: 905,
          completion_tokens: 41,
          total_tokens: 946,
          prompt_tokens_details: { cached_tokens: 0 },
        },
      },
      { content: 'slow reply', delay_ms: 5000 },
    ];
    await writeFile(path, JSON.stringify({ steps }));
    expect(loadScriptedModelFile(path)).toEqual(steps);
  });

  it.each([
    ['not JSON', '{steps:', /^invalid scripted model file .*script\.json: .+/],
    ['a root array', '[]', /: root must be an object$/],
    ['steps missing', '{}', /: steps must be an array$/],
    ['a non-object step', '{"steps":[1]}', /: steps\[0\] must be an object$/],
    ['an unknown step member', '{"steps":[{"text":"x"}]}', /: steps\[0\] has unknown members: text$/],
    ['non-string content', '{"steps":[{"content":1}]}', /: steps\[0\]\.content must be a string$/],
    [
      'negative delay',
      '{"steps":[{"delay_ms":-1}]}',
      /: steps\[0\]\.delay_ms must be a non-negative number$/,
    ],
    [
      'tool call arguments not an object',
      '{"steps":[{"tool_calls":[{"id":"a","name":"b","arguments":[]}]}]}',
      /: steps\[0\]\.tool_calls\[0\]\.arguments must be an object$/,
    ],
  ])('rejects %s', async (_label, text, message) => {
    const path = join(dir.path, 'script.json');
    await writeFile(path, text);
    expect(() => loadScriptedModelFile(path)).toThrow(message);
  });

  it('rejects a missing file', () => {
    const path = join(dir.path, 'missing.json');
    expect(() => loadScriptedModelFile(path)).toThrow(`invalid scripted model file ${path}: `);
  });
});
