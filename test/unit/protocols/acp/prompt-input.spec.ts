import { promptInput } from '../../../../src/protocols/acp/prompt-input';

describe('session/prompt content blocks → turn input (docs/spec/acp.md §2)', () => {
  it('keeps text, names resource links and wraps embedded text resources in a context block', () => {
    expect(
      promptInput([
        { type: 'text', text: 'Fix the bug' },
        { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
        { type: 'resource', resource: { uri: 'file:///w/b.ts', text: 'const b = 1;' } },
      ]),
    ).toEqual({
      input: [
        { type: 'text', text: 'Fix the bug' },
        { type: 'text', text: '[resource: file:///w/a.ts]' },
        { type: 'text', text: '<context uri="file:///w/b.ts">\nconst b = 1;\n</context>' },
      ],
    });
  });

  it('refuses images, audio and binary resources, naming the block', () => {
    expect(
      promptInput([
        { type: 'text', text: 'x' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
      ]),
    ).toEqual({
      invalid: 'prompt[1].type: image content is not supported',
    });
    expect(promptInput([{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }])).toEqual({
      invalid: 'prompt[0].type: audio content is not supported',
    });
    expect(promptInput([{ type: 'resource', resource: { uri: 'file:///x.bin', blob: 'AA==' } }])).toEqual({
      invalid: 'prompt[0].resource: only text resources are supported',
    });
  });
});
