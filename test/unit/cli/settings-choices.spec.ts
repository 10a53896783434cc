/** `--backend fkae` / `--model …` name what exists (issue 16 item 6), after the exact §13.3 line. */
import { withSettingsChoices } from '../../../src/cli/settings-choices';
import { parseLlmSettingsDocument } from '../../../src/runtime/llm/settings-document';

const settings = parseLlmSettingsDocument({
  VERSION: '2',
  endpoints: [{ id: 'e', api_base: 'http://127.0.0.1:1/v1', api_key: 'k' }],
  backends: {
    moonshot: { models: { 'kimi-k3': { id: 'k3', endpoints: ['e'] }, old: { id: 'o', enabled: false } } },
    local: { models: {} },
  },
});

describe('withSettingsChoices', () => {
  it.each([
    [
      'invalid LLM settings: backend not found: fkae',
      'fkae',
      'invalid LLM settings: backend not found: fkae\navailable backends: local, moonshot',
    ],
    [
      'invalid LLM settings: model not found: backend=moonshot model=k4',
      'moonshot',
      'invalid LLM settings: model not found: backend=moonshot model=k4\navailable models of moonshot: kimi-k3',
    ],
    [
      'invalid LLM settings: model not found: backend=local model=x',
      'local',
      'invalid LLM settings: model not found: backend=local model=x\navailable models of local: (none)',
    ],
    [
      'invalid LLM settings: endpoint not found: e2',
      'moonshot',
      'invalid LLM settings: endpoint not found: e2',
    ],
  ])('%s', (message, backend, expected) => {
    expect(withSettingsChoices(message, settings, backend)).toBe(expected);
  });
});
