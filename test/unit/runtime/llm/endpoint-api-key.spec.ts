/** Keys out of settings files: `api_key_env` and `${NAME}` in `api_key`, read when a model is resolved. */
import type { LlmSettings } from '../../../../src/runtime/llm/llm-settings';
import { resolveModelEndpoint } from '../../../../src/runtime/llm/model-resolution';
import { parseLlmSettingsDocument } from '../../../../src/runtime/llm/settings-document';

function settings(endpoints: Array<Record<string, unknown>>): LlmSettings {
  return parseLlmSettingsDocument({
    VERSION: '2',
    endpoints,
    backends: {
      b: { models: { used: { id: 'used', endpoints: ['e1'] }, other: { id: 'other', endpoints: ['e2'] } } },
    },
  });
}

function keyOf(document: LlmSettings, env: NodeJS.ProcessEnv, model = 'used'): string {
  return resolveModelEndpoint(document, 'b', model, env).endpoint_options[0].endpoint.api_key;
}

describe('endpoint api keys from the environment', () => {
  const OTHER = { id: 'e2', api_base: 'http://127.0.0.1:1/v1', api_key_env: 'OTHER_KEY' };

  it('api_key_env takes the whole key from the variable', () => {
    const document = settings([
      { id: 'e1', api_base: 'http://127.0.0.1:1/v1', api_key_env: 'VV_KEY' },
      OTHER,
    ]);
    expect(keyOf(document, { VV_KEY: 'sk-from-env' })).toBe('sk-from-env');
  });

  it('${NAME} references inside api_key are expanded; text around them stays', () => {
    const document = settings([
      { id: 'e1', api_base: 'http://127.0.0.1:1/v1', api_key: 'sk-${PART}-${TAIL}' },
      OTHER,
    ]);
    expect(keyOf(document, { PART: 'abc', TAIL: 'z' })).toBe('sk-abc-z');
  });

  it('a literal key without references is used as written', () => {
    const document = settings([
      { id: 'e1', api_base: 'http://127.0.0.1:1/v1', api_key: 'sk-$plain{x}' },
      OTHER,
    ]);
    expect(keyOf(document, {})).toBe('sk-$plain{x}');
  });

  it.each([
    [{ api_key_env: 'VV_KEY' }, {}, 'VV_KEY'],
    [{ api_key_env: 'VV_KEY' }, { VV_KEY: '' }, 'VV_KEY'],
    [{ api_key: 'sk-${MISSING}' }, {}, 'MISSING'],
  ])('a missing variable (%j, env %j) names it', (key, env, name) => {
    const document = settings([{ id: 'e1', api_base: 'http://127.0.0.1:1/v1', ...key }, OTHER]);
    expect(() => keyOf(document, env)).toThrow(
      `invalid LLM settings: endpoint e1: environment variable ${name} is not set`,
    );
  });

  it('only the endpoints of the resolved model need their variables', () => {
    const document = settings([{ id: 'e1', api_base: 'http://127.0.0.1:1/v1', api_key: 'sk-inline' }, OTHER]);
    expect(keyOf(document, {})).toBe('sk-inline');
    expect(() => keyOf(document, {}, 'other')).toThrow('environment variable OTHER_KEY is not set');
  });

  it.each([
    [
      { api_key_env: 'not a name' },
      'invalid LLM settings: endpoint e1.api_key_env must be an environment variable name',
    ],
    [{ api_key_env: 7 }, 'invalid LLM settings: endpoint e1.api_key_env must be a string'],
    [
      { api_key_env: 'K', api_key: 'sk' },
      'invalid LLM settings: endpoint e1 sets both api_key and api_key_env',
    ],
  ])('rejects %j in the settings document', (key, message) => {
    expect(() => settings([{ id: 'e1', api_base: 'http://127.0.0.1:1/v1', ...key }])).toThrow(message);
  });
});
