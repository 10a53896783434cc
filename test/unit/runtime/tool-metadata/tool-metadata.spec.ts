import { normalizeToolMetadata } from '../../../../src/runtime/tool-metadata/tool-metadata';

const DEFAULTS = {
  side_effect: 'unknown',
  idempotency: 'unknown',
  terminal: false,
  result_retention: 'archive',
  capability_tags: [],
  cost_dimensions: [],
};

describe('normalizeToolMetadata (§9.2)', () => {
  it.each([
    ['empty declaration → defaults', {}, DEFAULTS],
    [
      'all fields',
      {
        side_effect: 'execute',
        idempotency: 'unsupported',
        terminal: true,
        result_retention: 'preserve',
        capability_tags: ['x'],
        cost_dimensions: ['tokens'],
      },
      {
        side_effect: 'execute',
        idempotency: 'unsupported',
        terminal: true,
        result_retention: 'preserve',
        capability_tags: ['x'],
        cost_dimensions: ['tokens'],
      },
    ],
    [
      'labels trimmed (tab/LF/CR/space only), de-duplicated, sorted by UTF-16 code units',
      { capability_tags: ['\tb\n', 'a', ' b', 'B', '\u00a0c'] },
      { ...DEFAULTS, capability_tags: ['B', 'a', 'b', '\u00a0c'] },
    ],
    [
      '32 labels after de-duplication are fine',
      { cost_dimensions: [...Array.from({ length: 32 }, (_, i) => `d${i}`), 'd0'] },
      { ...DEFAULTS, cost_dimensions: Array.from({ length: 32 }, (_, i) => `d${i}`).sort() },
    ],
    [
      '128 code points',
      { capability_tags: ['😀'.repeat(128)] },
      { ...DEFAULTS, capability_tags: ['😀'.repeat(128)] },
    ],
  ])('%s', (_label, input, expected) => {
    expect(normalizeToolMetadata(input)).toEqual(expected);
  });

  it.each([
    ['not an object', null],
    ['an array', []],
    ['unknown field', { sideEffect: 'read' }],
    ['bad side_effect', { side_effect: 'delete' }],
    ['bad idempotency', { idempotency: true }],
    ['terminal not boolean', { terminal: 'yes' }],
    ['bad retention', { result_retention: 'forever' }],
    ['labels not array', { capability_tags: 'a' }],
    ['label not string', { capability_tags: [1] }],
    ['blank label', { cost_dimensions: [' \t'] }],
    ['33 labels', { capability_tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }],
    ['label over 128 code points', { capability_tags: ['x'.repeat(129)] }],
  ])('rejects %s with tool_metadata_invalid', (_label, input) => {
    expect(() => normalizeToolMetadata(input)).toThrow(/^tool_metadata_invalid: /);
  });
});
