/** Pure pieces of the tool layer: schema closing, call decoding, previews, canonical JSON. */
import {
  closeSchema,
  compileArgumentSchema,
  normalizeIssues,
} from '../../../../src/runtime/tools/argument-schema';
import { decodeToolCall } from '../../../../src/runtime/tools/tool-call-decoder';
import { canonicalJson, outputPreview } from '../../../../src/runtime/tools/tool-result';
import { visibleToolNames } from '../../../../src/runtime/tools/tool-registry';

describe('closeSchema (§9.3)', () => {
  it('closes every object schema recursively without touching literal data', () => {
    const schema = {
      type: 'object',
      properties: {
        nested: { type: 'object', properties: { deep: { type: 'object' } } },
        list: { type: 'array', items: { type: 'object', properties: {} } },
        open: { type: 'object', additionalProperties: true },
        choice: { anyOf: [{ type: 'object' }, { type: 'string' }] },
        constant: { const: { type: 'object' } },
      },
      $defs: { thing: { type: 'object' } },
    };
    const closed = closeSchema(schema);
    expect(closed).toEqual({
      type: 'object',
      properties: {
        nested: {
          type: 'object',
          properties: { deep: { type: 'object', additionalProperties: false } },
          additionalProperties: false,
        },
        list: { type: 'array', items: { type: 'object', properties: {}, additionalProperties: false } },
        open: { type: 'object', additionalProperties: true },
        choice: { anyOf: [{ type: 'object', additionalProperties: false }, { type: 'string' }] },
        constant: { const: { type: 'object' } },
      },
      $defs: { thing: { type: 'object', additionalProperties: false } },
      additionalProperties: false,
    });
    expect(schema.properties.nested).not.toHaveProperty('additionalProperties');
  });

  it('compiles with draft 2020-12 and reports invalid schemas', () => {
    const validate = compileArgumentSchema(
      closeSchema({ type: 'object', properties: { a: {}, b: {} }, dependentRequired: { a: ['b'] } }),
    );
    expect(validate({ b: 1 })).toEqual([]);
    expect(validate({ a: 1 })).toEqual([
      { instance_path: '', schema_path: '/dependentRequired', rule: 'dependentRequired' },
    ]);
    expect(() => compileArgumentSchema({ type: 'objekt' })).toThrow(/^invalid tool parameters schema: /);
  });

  it('issues are sorted and de-duplicated', () => {
    expect(
      normalizeIssues([
        { instance_path: '/b', schema_path: '/x', rule: 'type' },
        { instance_path: '', schema_path: '/z', rule: 'required' },
        { instance_path: '/b', schema_path: '/x', rule: 'type' },
        { instance_path: '', schema_path: '/a', rule: 'type' },
      ]),
    ).toEqual([
      { instance_path: '', schema_path: '/a', rule: 'type' },
      { instance_path: '', schema_path: '/z', rule: 'required' },
      { instance_path: '/b', schema_path: '/x', rule: 'type' },
    ]);
  });
});

describe('decodeToolCall (§9.5)', () => {
  const call = (id: string, name: string, args: string) => ({
    id,
    type: 'function' as const,
    function: { name, arguments: args },
  });

  it.each([
    ['empty arguments', call('a', 'x', ''), { id: 'a', name: 'x', arguments: {}, argumentError: null }],
    [
      'whitespace arguments',
      call(' a ', 'x', '  \n'),
      { id: 'a', name: 'x', arguments: {}, argumentError: null },
    ],
    ['an object', call('a', 'x', '{"k":[1]}'), { arguments: { k: [1] }, argumentError: null }],
    ['blank id', call('  ', 'x', '{}'), { id: 'call_generated_3' }],
    ['spaces in the name', call('a', ' read _file ', '{}'), { name: 'read_file' }],
    [
      'a non-object payload',
      call('a', 'x', '"text"'),
      {
        arguments: {},
        argumentError: {
          code: 'invalid_arguments_payload',
          message: 'Tool arguments must decode to an object',
        },
      },
    ],
    ['null payload', call('a', 'x', 'null'), { argumentError: { code: 'invalid_arguments_payload' } }],
  ])('%s', (_label, input, expected) => {
    expect(decodeToolCall(input, 3)).toMatchObject(expected);
  });

  it('invalid JSON → {} with the parser message', () => {
    const decoded = decodeToolCall(call('a', 'x', '{"k":'), 0);
    expect(decoded.arguments).toEqual({});
    expect(decoded.argumentError?.code).toBe('invalid_arguments_json');
    expect(decoded.argumentError?.message).toMatch(/^Invalid tool arguments JSON: .+/);
  });
});

describe('outputPreview and canonicalJson', () => {
  it('keeps content within 4096 bytes and never splits a code point', () => {
    expect(outputPreview('short')).toEqual({ preview: 'short', truncated: false });
    const exact = 'x'.repeat(4096);
    expect(outputPreview(exact)).toEqual({ preview: exact, truncated: false });
    const emoji = 'ab' + '😀'.repeat(1100);
    const { preview, truncated } = outputPreview(emoji);
    expect(truncated).toBe(true);
    expect(preview).toBe('ab' + '😀'.repeat(1023));
    expect(Buffer.byteLength(preview)).toBe(4094);
  });

  it('sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });
});

describe('visibleToolNames (§9.4)', () => {
  it.each([
    [{}, ['task_finish', 'ask_user', 'a', 'b']],
    [{ disallowedTools: ['ask_user', 'b'] }, ['task_finish', 'a']],
    [{ allowedTools: ['b', 'task_finish'] }, ['task_finish', 'b']],
    [{ allowedTools: ['a'], disallowedTools: ['a'] }, []],
  ])('%j', (policy, expected) => {
    expect(visibleToolNames(['task_finish', 'ask_user'], ['a', 'b', 'a'], policy)).toEqual(expected);
  });
});
