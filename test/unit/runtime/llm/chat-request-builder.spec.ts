import type { Message } from '../../../../src/runtime/messages';
import type {
  EndpointOption,
  LlmRequest,
  ModelSettings,
  ResolvedModelConfig,
  ToolSpec,
} from '../../../../src/runtime/model/types';
import {
  ChatRequestBuildError,
  buildChatRequestBody,
  chatRequestJson,
  isReasoningChainModel,
} from '../../../../src/runtime/llm/chat-request-builder';

function model(backend: string, modelId: string): ResolvedModelConfig {
  return {
    backend,
    requested_model: modelId,
    selected_model: modelId,
    model_id: modelId,
    display_name: null,
    context_length: null,
    max_output_tokens: null,
    function_call_available: true,
    response_format_available: false,
    native_multimodal: false,
    endpoint_options: [],
  };
}

function option(modelId: string): EndpointOption {
  return { endpoint: { id: 'e', api_base: 'http://x', api_key: 'k' }, model_id: modelId };
}

function tool(name: string): ToolSpec {
  return {
    type: 'function',
    function: { name, description: `${name} tool`, parameters: { type: 'object' } },
  };
}

const CONVERSATION: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'hi' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{ "command" : "ls" }' } },
    ],
  },
  { role: 'tool', content: 'out', tool_call_id: 'c1' },
  { role: 'assistant', content: 'done', reasoning_content: 'because' },
];

interface BuildOverrides {
  backend?: string;
  modelId?: string;
  settings?: ModelSettings;
  tools?: ToolSpec[];
  messages?: Message[];
}

function requestFor(overrides: BuildOverrides): { request: LlmRequest; option: EndpointOption } {
  const modelId = overrides.modelId ?? 'gpt-test';
  const request: LlmRequest = {
    model: model(overrides.backend ?? 'openai', modelId),
    messages: overrides.messages ?? CONVERSATION,
    tools: overrides.tools ?? [],
    settings: overrides.settings ?? {},
  };
  return { request, option: option(modelId) };
}

function build(overrides: BuildOverrides = {}) {
  const { request, option: endpoint } = requestFor(overrides);
  return buildChatRequestBody(request, endpoint);
}

describe('buildChatRequestBody', () => {
  it('builds the streaming body with messages in order and compact tool-call arguments', () => {
    expect(build()).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'out' },
        { role: 'assistant', content: 'done', reasoning_content: 'because' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('uses the endpoint option model_id, not the requested model', () => {
    const request: LlmRequest = { model: model('openai', 'alias'), messages: [], tools: [], settings: {} };
    expect(buildChatRequestBody(request, option('provider-id')).model).toBe('provider-id');
  });

  it('keeps non-JSON tool-call arguments as stored', () => {
    const body = build({
      messages: [
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }],
        },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }],
      },
    ]);
  });

  it.each([
    ['deepseek', 'anything', true],
    ['minimax', 'anything', true],
    ['moonshot', 'anything', true],
    ['openai', 'deepseek-v4-pro', true],
    ['openai', 'minimax-m2', true],
    ['openai', 'kimi-k3', true],
    ['openai', 'moonshot-v1-8k', true],
    ['openai', 'gpt-5', false],
    ['custom', 'my-kimi-k3', false],
  ])('reasoning chain for backend %s model %s: %s', (backend, modelId, expected) => {
    expect(isReasoningChainModel(backend, modelId)).toBe(expected);
    const body = build({ backend, modelId });
    const assistants = (body.messages as Array<Record<string, unknown>>).filter(
      (m) => m.role === 'assistant',
    );
    if (expected) {
      expect(assistants.map((m) => m.reasoning_content)).toEqual(['', 'because']);
    } else {
      expect(assistants.map((m) => m.reasoning_content)).toEqual([undefined, 'because']);
    }
  });

  describe('tools and tool_choice', () => {
    const tools = [tool('read_file'), tool('bash')];

    it('omits tools and tool_choice when there are no tools', () => {
      const body = build({ tools: [] });
      expect(body).not.toHaveProperty('tools');
      expect(body).not.toHaveProperty('tool_choice');
    });

    it('sends tools with tool_choice auto by default', () => {
      const body = build({ tools });
      expect(body.tools).toEqual(tools);
      expect(body.tool_choice).toBe('auto');
    });

    it.each(['auto', 'required'] as const)('passes tool_choice %s', (choice) => {
      expect(build({ tools, settings: { tool_choice: choice } }).tool_choice).toBe(choice);
    });

    it('removes tools and tool_choice for none', () => {
      const body = build({ tools, settings: { tool_choice: 'none' } });
      expect(body).not.toHaveProperty('tools');
      expect(body).not.toHaveProperty('tool_choice');
    });

    it('sends only the chosen function', () => {
      const body = build({
        tools,
        settings: { tool_choice: { type: 'function', function: { name: 'bash' } } },
      });
      expect(body.tools).toEqual([tool('bash')]);
      expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'bash' } });
    });

    it('rejects a function choice naming an unknown tool', () => {
      expect(() =>
        build({ tools, settings: { tool_choice: { type: 'function', function: { name: 'nope' } } } }),
      ).toThrow(new ChatRequestBuildError('tool_choice refers to unknown tool: nope'));
    });
  });

  it('sends sampling settings only when set', () => {
    const body = build({
      settings: { temperature: 0, top_p: 0.5, max_tokens: 100, parallel_tool_calls: false },
    });
    expect(body).toMatchObject({ temperature: 0, top_p: 0.5, max_tokens: 100, parallel_tool_calls: false });
    const plain = build();
    for (const member of ['temperature', 'top_p', 'max_tokens', 'parallel_tool_calls']) {
      expect(plain).not.toHaveProperty(member);
    }
  });

  it('never sends timeout or retry settings', () => {
    const body = build({ settings: { timeout_seconds: 5, retry: { max_attempts: 1 } } });
    expect(body).not.toHaveProperty('timeout_seconds');
    expect(body).not.toHaveProperty('retry');
  });

  it('merges extra_body last at the top level', () => {
    const body = build({
      settings: {
        temperature: 1,
        extra_body: { temperature: 0.2, stream_options: { include_usage: false }, seed: 7 },
      },
    });
    expect(body).toMatchObject({ temperature: 0.2, stream_options: { include_usage: false }, seed: 7 });
  });

  it('does not let an extra_body __proto__ member change the body prototype', () => {
    const extra = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const body = build({ settings: { extra_body: extra } });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect((body as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each([
    ['deepseek', 'deepseek-v4-pro'],
    ['deepseek', 'custom-name'],
    ['gateway', 'deepseek-chat'],
  ])('enables max thinking for DeepSeek (backend %s, model %s), after settings', (backend, modelId) => {
    const body = build({
      backend,
      modelId,
      settings: { extra_body: { thinking: { type: 'disabled' }, reasoning_effort: 'low' } },
    });
    expect(body.thinking).toEqual({ type: 'enabled' });
    expect(body.reasoning_effort).toBe('max');
  });

  it('applies the kimi-k3 rules after settings', () => {
    const body = build({
      backend: 'moonshot',
      modelId: 'kimi-k3-preview',
      settings: {
        temperature: 0.3,
        top_p: 0.9,
        max_tokens: 2048,
        extra_body: {
          thinking: { type: 'enabled' },
          reasoning: {},
          enable_thinking: true,
          frequency_penalty: 1,
          presence_penalty: 1,
          n: 2,
          seed: 1,
        },
      },
    });
    for (const member of [
      'temperature',
      'top_p',
      'thinking',
      'reasoning',
      'enable_thinking',
      'frequency_penalty',
      'presence_penalty',
      'n',
      'max_tokens',
    ]) {
      expect(body).not.toHaveProperty(member);
    }
    expect(body).toMatchObject({ max_completion_tokens: 2048, reasoning_effort: 'max', seed: 1 });
  });

  it('does not apply kimi-k3 rules to other kimi models', () => {
    const body = build({
      backend: 'moonshot',
      modelId: 'kimi-k2',
      settings: { temperature: 0.3, max_tokens: 10 },
    });
    expect(body).toMatchObject({ temperature: 0.3, max_tokens: 10 });
    expect(body).not.toHaveProperty('reasoning_effort');
  });
});

describe('chatRequestJson', () => {
  const cases: Array<[string, BuildOverrides]> = [
    ['no settings', {}],
    [
      'tools and sampling settings',
      { tools: [tool('a'), tool('b')], settings: { temperature: 0.5, max_tokens: 9 } },
    ],
    ['a reasoning-chain model', { backend: 'deepseek', modelId: 'deepseek-v4-pro' }],
    ['the kimi-k3 rules', { backend: 'moonshot', modelId: 'kimi-k3', settings: { max_tokens: 5, top_p: 1 } }],
    [
      'extra_body members',
      { settings: { extra_body: { seed: 7, stream_options: { include_usage: false } } } },
    ],
    [
      'extra_body replacing messages',
      { settings: { extra_body: { messages: [{ role: 'user', content: 'x' }] } } },
    ],
    ['extra_body replacing the model', { settings: { extra_body: { model: 'other' } } }],
    ['no messages', { messages: [] }],
    ['text that needs escaping', { messages: [{ role: 'user', content: '"],"model":"\\u0000\n' }] }],
  ];

  it.each(cases)('is the JSON of buildChatRequestBody (%s)', (_name, overrides) => {
    const { request, option: endpoint } = requestFor(overrides);
    expect(chatRequestJson(request, endpoint)).toBe(JSON.stringify(buildChatRequestBody(request, endpoint)));
  });

  it('serializes a message once, however many requests carry it', () => {
    let reads = 0;
    const counted = {
      role: 'user',
      get content() {
        reads += 1;
        return 'counted';
      },
    } as Message;
    const first = requestFor({ messages: [CONVERSATION[0], counted] });
    const later = requestFor({ messages: [CONVERSATION[0], counted, { role: 'user', content: 'next' }] });
    chatRequestJson(first.request, first.option);
    const readsAfterFirst = reads;
    const json = chatRequestJson(later.request, later.option);
    expect(readsAfterFirst).toBeGreaterThan(0);
    expect(reads).toBe(readsAfterFirst);
    expect(JSON.parse(json).messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'counted' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('keeps a separate wire form for reasoning-chain models', () => {
    const assistant: Message = { role: 'assistant', content: 'a' };
    const plain = requestFor({ messages: [assistant] });
    const chained = requestFor({ messages: [assistant], backend: 'deepseek', modelId: 'deepseek-chat' });
    expect(JSON.parse(chatRequestJson(plain.request, plain.option)).messages).toEqual([
      { role: 'assistant', content: 'a' },
    ]);
    expect(JSON.parse(chatRequestJson(chained.request, chained.option)).messages).toEqual([
      { role: 'assistant', content: 'a', reasoning_content: '' },
    ]);
  });
});
