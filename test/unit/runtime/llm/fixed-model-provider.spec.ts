import type { LlmClient, ModelRef, ResolvedModelConfig } from '../../../../src/runtime/model/types';
import { FixedModelProvider } from '../../../../src/runtime/llm/fixed-model-provider';

const CONFIG: ResolvedModelConfig = {
  backend: 'moonshot',
  requested_model: 'kimi',
  selected_model: 'kimi-selected',
  model_id: 'kimi-k3-0711',
  display_name: 'Kimi K3',
  context_length: 1000,
  max_output_tokens: null,
  function_call_available: true,
  response_format_available: false,
  native_multimodal: false,
  endpoint_options: [],
};

const CLIENT: LlmClient = { complete: () => Promise.reject(new Error('unused')) };

describe('FixedModelProvider', () => {
  const provider = new FixedModelProvider(CONFIG, CLIENT);

  it.each<[string, ModelRef]>([
    ['named requested model', { type: 'named', model: 'kimi' }],
    ['named selected model', { type: 'named', model: 'kimi-selected' }],
    ['named model_id', { type: 'named', model: 'kimi-k3-0711' }],
    ['backend_model requested model', { type: 'backend_model', backend: 'moonshot', model: 'kimi' }],
    ['backend_model model_id', { type: 'backend_model', backend: 'moonshot', model: 'kimi-k3-0711' }],
    [
      'resolved, same backend and model_id',
      { type: 'resolved', config: { ...CONFIG, requested_model: 'other' } },
    ],
  ])('resolves %s to the startup config', (_name, ref) => {
    expect(provider.resolve(ref)).toBe(CONFIG);
  });

  it.each<[string, ModelRef, string]>([
    ['another named model', { type: 'named', model: 'gpt-5' }, 'gpt-5'],
    ['a prefix', { type: 'named', model: 'kim' }, 'kim'],
    ['another backend', { type: 'backend_model', backend: 'deepseek', model: 'kimi' }, 'kimi'],
    ['another model on the backend', { type: 'backend_model', backend: 'moonshot', model: 'x' }, 'x'],
    [
      'a resolved ref of another model',
      { type: 'resolved', config: { ...CONFIG, model_id: 'other-id', requested_model: 'other' } },
      'other',
    ],
    ['a resolved ref of another backend', { type: 'resolved', config: { ...CONFIG, backend: 'b2' } }, 'kimi'],
  ])('rejects %s', (_name, ref, shown) => {
    expect(() => provider.resolve(ref)).toThrow(
      new Error(`App Server fixed model provider cannot resolve \`${shown}\``),
    );
  });

  it('always returns the startup client', () => {
    expect(provider.client({ ...CONFIG, model_id: 'anything' })).toBe(CLIENT);
  });

  it('defaults to backend_model(backend, requested_model)', () => {
    expect(provider.defaultModelRef()).toEqual({ type: 'backend_model', backend: 'moonshot', model: 'kimi' });
  });
});
