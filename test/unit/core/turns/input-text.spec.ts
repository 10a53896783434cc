import { deriveInputText } from '../../../../src/core/turns/input-text';

describe('deriveInputText (docs/spec/protocol.md §8.9)', () => {
  it.each<[string, Record<string, unknown>[], string]>([
    [
      'spec example: text then image',
      [
        { type: 'text', text: 'hello' },
        { type: 'image', url: 'https://example.invalid/a.png' },
      ],
      'hello\n{"type":"image","url":"https://example.invalid/a.png"}',
    ],
    ['spec example: text without type is compact JSON', [{ text: 'do it' }], '{"text":"do it"}'],
    ['spec example: empty input', [], ''],
    [
      'empty text elements are dropped',
      [
        { type: 'text', text: '' },
        { type: 'text', text: 'a' },
        { type: 'text', text: '' },
      ],
      'a',
    ],
    [
      'non-string text is compact JSON, member order as received',
      [{ text: 5, type: 'text' }],
      '{"text":5,"type":"text"}',
    ],
    [
      'multi-line texts are joined by a newline',
      [
        { type: 'text', text: 'one\ntwo' },
        { type: 'text', text: 'three' },
      ],
      'one\ntwo\nthree',
    ],
    ['whitespace-only text is kept', [{ type: 'text', text: ' ' }], ' '],
    ['type is case-sensitive', [{ type: 'Text', text: 'x' }], '{"type":"Text","text":"x"}'],
  ])('%s', (_name, input, expected) => {
    expect(deriveInputText(input)).toBe(expected);
  });
});
