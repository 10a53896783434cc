import { mergeModelSettings, validateModelSettings } from '../../../../src/runtime/model/model-settings';

describe('model settings (§14.2)', () => {
  it('run settings replace agent members and merge extra_body by key', () => {
    expect(
      mergeModelSettings(
        { temperature: 0.1, top_p: 0.5, retry: { max_attempts: 5 }, extra_body: { a: 1, b: 1 } },
        { temperature: 0.9, retry: { backoff_seconds: 0 }, extra_body: { b: 2 } },
      ),
    ).toEqual({ temperature: 0.9, top_p: 0.5, retry: { backoff_seconds: 0 }, extra_body: { a: 1, b: 2 } });
    expect(mergeModelSettings(undefined, undefined)).toEqual({});
  });

  it.each([
    [{}],
    [{ temperature: 0, top_p: 1, max_tokens: 1, parallel_tool_calls: false, timeout_seconds: 0.5 }],
    [{ tool_choice: 'auto' }],
    [{ tool_choice: 'none' }],
    [{ tool_choice: { type: 'function', function: { name: 'bash' } } }],
    [{ retry: { max_attempts: 1, backoff_seconds: 0 } }],
    [{ extra_body: { thinking: { type: 'enabled' } } }],
  ])('accepts %j', (settings) => {
    expect(validateModelSettings(settings)).toEqual(settings);
  });

  it.each([
    [{ temperature: -0.1 }, 'temperature must be a finite number >= 0'],
    [{ temperature: Infinity }, 'temperature must be a finite number >= 0'],
    [{ top_p: 1.5 }, 'top_p must be a number between 0 and 1'],
    [{ max_tokens: 0 }, 'max_tokens must be an integer > 0'],
    [{ max_tokens: 1.5 }, 'max_tokens must be an integer > 0'],
    [
      { tool_choice: 'any' },
      'tool_choice must be "auto", "required", "none" or {"type":"function","function":{"name":<tool>}}',
    ],
    [{ parallel_tool_calls: 'yes' }, 'parallel_tool_calls must be a boolean'],
    [{ timeout_seconds: 0 }, 'timeout_seconds must be a finite number > 0'],
    [{ retry: { max_attempts: 0 } }, 'retry.max_attempts must be an integer > 0'],
    [{ retry: { backoff_seconds: -1 } }, 'retry.backoff_seconds must be a finite number >= 0'],
    [{ retry: { jitter: true } }, 'unknown retry member: jitter'],
    [{ extra_body: [] }, 'extra_body must be an object'],
    [{ seed: 7 }, 'unknown member: seed'],
  ])('rejects %j', (settings, detail) => {
    expect(() => validateModelSettings(settings)).toThrow(new Error(`invalid model settings: ${detail}`));
  });
});
