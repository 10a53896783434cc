import type { LlmSettings } from '../../../../src/runtime/llm/llm-settings';
import {
  assertChatCompletionsEndpoints,
  resolveModelEndpoint,
} from '../../../../src/runtime/llm/model-resolution';
import { parseLlmSettingsDocument } from '../../../../src/runtime/llm/settings-document';

function settings(document: Record<string, unknown>): LlmSettings {
  return parseLlmSettingsDocument({ VERSION: '2', ...document });
}

const CATALOG = settings({
  endpoints: [
    { id: 'moonshot-default', api_base: 'https://api.moonshot.cn/v1/', api_key: 'sk-a' },
    { id: 'moonshot-backup', api_base: 'https://backup.example.invalid/v1', api_key: 'sk-b' },
    { id: 'disabled', api_base: 'https://off.example.invalid/v1', api_key: 'sk-c', enabled: false },
    { id: 'responses', api_base: 'https://r.example.invalid/v1', api_key: 'sk-r', response_api: true },
  ],
  backends: {
    moonshot: {
      models: {
        'kimi-k3': {
          id: 'kimi-k3',
          display_name: 'Kimi K3',
          endpoints: [
            { endpoint_id: 'moonshot-default', model_id: 'kimi-k3-0711' },
            'disabled',
            { endpoint_id: 'moonshot-backup', enabled: false },
            'moonshot-backup',
            'missing-endpoint',
          ],
          context_length: 1000000,
          max_output_tokens: 131072,
          function_call_available: true,
          response_format_available: true,
          native_multimodal: true,
        },
        'kimi-old': { id: 'kimi-old', enabled: false, endpoints: ['moonshot-default'] },
        'alias-key': { id: 'kimi-real-id', endpoints: ['moonshot-backup'] },
        'no-bindings': {
          id: 'no-bindings',
          endpoints: [{ endpoint_id: 'moonshot-default', enabled: false }],
        },
        dangling: { id: 'dangling', endpoints: ['missing-endpoint', 'moonshot-default'] },
        'points-to-disabled': { id: 'points-to-disabled', endpoints: ['disabled'] },
        'via-responses': { id: 'via-responses', endpoints: ['responses'] },
      },
    },
    'my-own-backend': { models: { m: { id: 'm', endpoints: ['moonshot-backup'] } } },
  },
});

describe('resolveModelEndpoint', () => {
  it('resolves by model key with every field of the result', () => {
    expect(resolveModelEndpoint(CATALOG, 'moonshot', 'kimi-k3')).toEqual({
      backend: 'moonshot',
      requested_model: 'kimi-k3',
      selected_model: 'kimi-k3',
      model_id: 'kimi-k3-0711',
      display_name: 'Kimi K3',
      context_length: 1000000,
      max_output_tokens: 131072,
      function_call_available: true,
      response_format_available: true,
      native_multimodal: true,
      endpoint_options: [
        {
          endpoint: { id: 'moonshot-default', api_base: 'https://api.moonshot.cn/v1', api_key: 'sk-a' },
          model_id: 'kimi-k3-0711',
        },
        {
          endpoint: { id: 'moonshot-backup', api_base: 'https://backup.example.invalid/v1', api_key: 'sk-b' },
          model_id: 'kimi-k3',
        },
      ],
    });
  });

  it('resolves by entry id when no key matches, keeping the requested name', () => {
    const resolved = resolveModelEndpoint(CATALOG, 'moonshot', 'kimi-real-id');
    expect(resolved).toMatchObject({
      requested_model: 'kimi-real-id',
      selected_model: 'kimi-real-id',
      model_id: 'kimi-real-id',
      display_name: null,
      context_length: null,
      max_output_tokens: null,
      function_call_available: false,
    });
  });

  it('accepts any backend key of the file', () => {
    expect(resolveModelEndpoint(CATALOG, 'my-own-backend', 'm').backend).toBe('my-own-backend');
  });

  it.each([
    ['an unknown backend', 'foo', 'kimi-k3', 'invalid LLM settings: backend not found: foo'],
    [
      'an inherited property name as backend',
      'constructor',
      'kimi-k3',
      'invalid LLM settings: backend not found: constructor',
    ],
    [
      'a similar model name (no aliases)',
      'moonshot',
      'kimi-k2.5',
      'invalid LLM settings: model not found: backend=moonshot model=kimi-k2.5',
    ],
    [
      'a prefix of a model name',
      'moonshot',
      'kimi',
      'invalid LLM settings: model not found: backend=moonshot model=kimi',
    ],
    [
      'a case variant',
      'moonshot',
      'Kimi-K3',
      'invalid LLM settings: model not found: backend=moonshot model=Kimi-K3',
    ],
    [
      'a disabled model',
      'moonshot',
      'kimi-old',
      'invalid LLM settings: model not found: backend=moonshot model=kimi-old',
    ],
    [
      'a model with no enabled binding',
      'moonshot',
      'no-bindings',
      'invalid LLM settings: configuration error: model no-bindings has no enabled endpoints',
    ],
    [
      'a first binding to a missing endpoint',
      'moonshot',
      'dangling',
      'invalid LLM settings: endpoint not found: missing-endpoint',
    ],
    [
      'a first binding to a disabled endpoint',
      'moonshot',
      'points-to-disabled',
      'invalid LLM settings: endpoint not found: disabled',
    ],
  ])('rejects %s', (_name, backend, model, message) => {
    expect(() => resolveModelEndpoint(CATALOG, backend, model)).toThrow(new Error(message));
  });
});

describe('assertChatCompletionsEndpoints', () => {
  it('rejects a model served by a Responses endpoint', () => {
    const resolved = resolveModelEndpoint(CATALOG, 'moonshot', 'via-responses');
    expect(() => assertChatCompletionsEndpoints(CATALOG, resolved)).toThrow(
      new Error('Responses endpoints are not supported'),
    );
  });

  it('accepts chat-completions endpoints', () => {
    expect(() =>
      assertChatCompletionsEndpoints(CATALOG, resolveModelEndpoint(CATALOG, 'moonshot', 'kimi-k3')),
    ).not.toThrow();
  });
});
