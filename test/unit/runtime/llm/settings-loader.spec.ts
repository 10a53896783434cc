import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLlmSettings } from '../../../../src/runtime/llm/settings-loader';

const VALID = {
  VERSION: '2',
  endpoints: [
    {
      id: 'moonshot-default',
      api_base: 'https://api.moonshot.cn/v1/',
      api_key: 'sk-a',
      enabled: true,
      endpoint_type: 'default',
    },
    { id: 'moonshot-backup', api_base: 'https://backup.example.invalid/v1', api_key: 'sk-b', extra: 1 },
  ],
  backends: {
    moonshot: {
      models: {
        'kimi-k3': {
          id: 'kimi-k3',
          display_name: 'Kimi K3',
          endpoints: [
            { endpoint_id: 'moonshot-default', model_id: 'kimi-k3', enabled: true },
            'moonshot-backup',
          ],
          context_length: 1000000,
          max_output_tokens: 131072,
          function_call_available: true,
        },
      },
    },
  },
  embedding_backends: { anything: true },
  rerank_backends: [],
};

describe('loadLlmSettings', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'llm-settings-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function write(name: string, content: string | object): string {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  it('loads a valid file with defaults applied and trailing slashes removed', () => {
    const settings = loadLlmSettings(write('settings.json', VALID));
    expect(settings.version).toBe('2');
    expect(settings.endpoints).toEqual([
      {
        id: 'moonshot-default',
        api_base: 'https://api.moonshot.cn/v1',
        api_key: 'sk-a',
        api_key_env: null,
        enabled: true,
        endpoint_type: 'default',
        response_api: false,
      },
      {
        id: 'moonshot-backup',
        api_base: 'https://backup.example.invalid/v1',
        api_key: 'sk-b',
        api_key_env: null,
        enabled: true,
        endpoint_type: 'default',
        response_api: false,
      },
    ]);
    expect([...settings.backends.keys()]).toEqual(['moonshot']);
    expect(settings.backends.get('moonshot')?.models.get('kimi-k3')).toEqual({
      key: 'kimi-k3',
      id: 'kimi-k3',
      display_name: 'Kimi K3',
      enabled: true,
      endpoints: [
        { endpoint_id: 'moonshot-default', model_id: 'kimi-k3', enabled: true },
        { endpoint_id: 'moonshot-backup', model_id: null, enabled: true },
      ],
      context_length: 1000000,
      max_output_tokens: 131072,
      function_call_available: true,
      response_format_available: false,
      native_multimodal: false,
    });
  });

  it('accepts an upper-case .JSON extension', () => {
    expect(loadLlmSettings(write('SETTINGS.JSON', VALID)).version).toBe('2');
  });

  it('reports a missing file with the path as given', () => {
    const relative = 'does/not/exist.json';
    expect(() => loadLlmSettings(relative)).toThrow(new Error(`settings file not found: ${relative}`));
  });

  it('reports a read error', () => {
    const path = join(dir, 'folder.json');
    mkdirSync(path);
    expect(() => loadLlmSettings(path)).toThrow(
      new Error(`failed to read settings file ${path}: EISDIR: illegal operation on a directory, read`),
    );
  });

  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (asRoot ? it.skip : it)('reports an unreadable file as a read error', () => {
    const path = write('locked.json', VALID);
    chmodSync(path, 0o000);
    expect(() => loadLlmSettings(path)).toThrow(/^failed to read settings file .*locked\.json: EACCES/);
  });

  it.each([
    ['settings.yaml', 'yaml'],
    ['settings.Yml', 'Yml'],
    ['settings', '<none>'],
    ['settings.json.bak', 'bak'],
  ])('rejects the extension of %s', (name, shown) => {
    expect(() => loadLlmSettings(write(name, VALID))).toThrow(
      new Error(`invalid LLM settings: unsupported settings file extension: ${shown}`),
    );
  });

  it('reports invalid JSON with the parser message', () => {
    const path = write('broken.json', '{"VERSION": ');
    let parserMessage = '';
    try {
      JSON.parse('{"VERSION": ');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    expect(() => loadLlmSettings(path)).toThrow(
      new Error(`failed to parse settings file ${path}: ${parserMessage}`),
    );
  });

  it.each([
    ['root an array', [], 'invalid LLM settings: LLM_SETTINGS must be an object'],
    ['root null', null, 'invalid LLM settings: LLM_SETTINGS must be an object'],
    [
      'VERSION missing',
      { backends: {}, endpoints: [] },
      "invalid LLM settings: LLM_SETTINGS.VERSION must be '2'",
    ],
    [
      'VERSION a number',
      { VERSION: 2, backends: {}, endpoints: [] },
      "invalid LLM settings: LLM_SETTINGS.VERSION must be '2'",
    ],
    [
      'VERSION 1',
      { VERSION: '1', backends: {}, endpoints: [] },
      "invalid LLM settings: LLM_SETTINGS.VERSION must be '2'",
    ],
    [
      'backends missing',
      { VERSION: '2', endpoints: [] },
      'invalid LLM settings: LLM_SETTINGS.backends must be an object',
    ],
    [
      'backends an array',
      { VERSION: '2', backends: [], endpoints: [] },
      'invalid LLM settings: LLM_SETTINGS.backends must be an object',
    ],
    [
      'endpoints missing',
      { VERSION: '2', backends: {} },
      'invalid LLM settings: LLM_SETTINGS.endpoints must be an array',
    ],
    [
      'endpoints an object',
      { VERSION: '2', backends: {}, endpoints: {} },
      'invalid LLM settings: LLM_SETTINGS.endpoints must be an array',
    ],
    [
      'a model without id',
      { VERSION: '2', endpoints: [], backends: { b: { models: { m: { endpoints: [] } } } } },
      'invalid LLM settings: model m is missing id',
    ],
    [
      'a model with an empty id',
      { VERSION: '2', endpoints: [], backends: { b: { models: { m: { id: '' } } } } },
      'invalid LLM settings: model m is missing id',
    ],
    [
      'an endpoint without id',
      { VERSION: '2', endpoints: [{ api_base: 'x' }], backends: {} },
      'invalid LLM settings: LLM_SETTINGS.endpoints[0] is missing id',
    ],
    [
      'a non-integer context_length',
      { VERSION: '2', endpoints: [], backends: { b: { models: { m: { id: 'm', context_length: 1.5 } } } } },
      'invalid LLM settings: model m.context_length must be an integer',
    ],
    [
      'a bad endpoint binding',
      { VERSION: '2', endpoints: [], backends: { b: { models: { m: { id: 'm', endpoints: [3] } } } } },
      'invalid LLM settings: model m.endpoints[0] must be an endpoint id or an object with endpoint_id',
    ],
  ])('rejects %s', (_name, document, message) => {
    expect(() => loadLlmSettings(write('settings.json', JSON.stringify(document)))).toThrow(
      new Error(message),
    );
  });

  it('does not merge any default catalog', () => {
    const settings = loadLlmSettings(write('settings.json', { VERSION: '2', endpoints: [], backends: {} }));
    expect(settings.endpoints).toEqual([]);
    expect(settings.backends.size).toBe(0);
  });
});
