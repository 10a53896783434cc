import { interpretLine } from '../../../src/rpc/inbound-line';

const verdictOf = (line: Buffer | string, max = 1024): unknown => {
  const verdict = interpretLine(typeof line === 'string' ? Buffer.from(line, 'utf8') : line, max);
  return verdict.kind === 'error'
    ? { kind: 'error', id: verdict.id, error: verdict.error.toErrorObject() }
    : verdict;
};

const PARSE_ERROR = { kind: 'error', id: null, error: { code: -32700, message: 'Parse error' } };

describe('interpretLine (docs/spec/protocol.md §1.2)', () => {
  it('step 1: a line longer than maxMessageBytes is -32600 input_too_large with id null', () => {
    expect(verdictOf('{"id":1,"method":"m"}', 10)).toEqual({
      kind: 'error',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request',
        data: { reason: 'input_too_large', limitBytes: 10 },
      },
    });
  });

  it.each(['', ' ', '\t \t', '\r'])('step 2: blank line %p is ignored', (line) => {
    expect(verdictOf(line)).toEqual({ kind: 'ignore' });
  });

  it.each<[string, Buffer | string]>([
    ['invalid UTF-8 bytes', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['a truncated UTF-8 sequence', Buffer.from([0x22, 0xe2, 0x82, 0x22])],
    ['a lone surrogate encoded as bytes', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ['not JSON', 'hello'],
    ['trailing garbage', '{"id":1,"method":"m"} x'],
    ['two values', '{} {}'],
    ['truncated JSON', '{"id":1,'],
    ['a BOM inside the stream', '\uFEFF{}'],
  ])('step 3: %s is -32700 with id null', (_name, line) => {
    expect(verdictOf(line)).toEqual(PARSE_ERROR);
  });

  it('step 4: a value that fails classification is -32600 with the id echo rule', () => {
    expect(verdictOf('{"jsonrpc":"1.0","id":7,"method":"model/list"}')).toEqual({
      kind: 'error',
      id: 7,
      error: { code: -32600, message: 'Invalid Request' },
    });
    expect(verdictOf('[]')).toEqual({
      kind: 'error',
      id: null,
      error: { code: -32600, message: 'Invalid Request' },
    });
  });

  it('step 5: a classified envelope is returned for dispatch; non-ASCII decodes', () => {
    expect(verdictOf('{"id":"é","method":"m","params":{"t":"日本"}}')).toEqual({
      kind: 'envelope',
      envelope: { kind: 'request', id: 'é', method: 'm', params: { t: '日本' } },
    });
  });
});
