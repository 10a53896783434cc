import { SseParser } from '../../../../src/runtime/llm/sse-parser';

function parseWhole(text: string | Buffer): { payloads: string[]; done: boolean } {
  const parser = new SseParser();
  const payloads = [...parser.push(Buffer.from(text)), ...parser.end()];
  return { payloads, done: parser.done };
}

function parseInPieces(bytes: Buffer, cuts: number[]): { payloads: string[]; done: boolean } {
  const parser = new SseParser();
  const payloads: string[] = [];
  let previous = 0;
  for (const cut of [...cuts, bytes.length]) {
    payloads.push(...parser.push(bytes.subarray(previous, cut)));
    previous = cut;
  }
  payloads.push(...parser.end());
  return { payloads, done: parser.done };
}

/** A recorded-style stream: multi-byte text, comments, CRLF and CR terminators, a multi-line event. */
const RECORDED = Buffer.from(
  [
    ': keep-alive\n\n',
    'data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\n\n',
    'data: {"choices":[{"delta":{"content":"héllo "}}]}\n\n',
    'event: message\r\nid: 7\r\ndata: {"choices":[{"delta":{"content":"世界 🎉"}}]}\r\n\r\n',
    'data: {"choices":[{"delta":{"content":"ça"}}]}\r\r',
    'data: {"a":\ndata: 1}\n\n',
    ':comment with data: inside\n',
    'data:{"choices":[],"usage":{"prompt_tokens":3}}\n\n',
    'data: [DONE]\n\n',
    'data: {"after":"done"}\n\n',
  ].join(''),
  'utf8',
);

const RECORDED_PAYLOADS = [
  '{"choices":[{"delta":{"role":"assistant","content":""}}]}',
  '{"choices":[{"delta":{"content":"héllo "}}]}',
  '{"choices":[{"delta":{"content":"世界 🎉"}}]}',
  '{"choices":[{"delta":{"content":"ça"}}]}',
  '{"a":\n1}',
  '{"choices":[],"usage":{"prompt_tokens":3}}',
];

describe('SseParser', () => {
  it('parses the recorded stream whole', () => {
    expect(parseWhole(RECORDED)).toEqual({ payloads: RECORDED_PAYLOADS, done: true });
  });

  it('gives the same payloads for every single split position, including inside multi-byte characters', () => {
    const multiByteOffsets = [...RECORDED.entries()].filter(([, byte]) => byte >= 0x80).length;
    expect(multiByteOffsets).toBeGreaterThan(5);
    for (let cut = 0; cut <= RECORDED.length; cut += 1) {
      expect({ cut, ...parseInPieces(RECORDED, [cut]) }).toEqual({
        cut,
        payloads: RECORDED_PAYLOADS,
        done: true,
      });
    }
  });

  it('gives the same payloads when fed one byte at a time', () => {
    const cuts = Array.from({ length: RECORDED.length - 1 }, (_, i) => i + 1);
    expect(parseInPieces(RECORDED, cuts)).toEqual({ payloads: RECORDED_PAYLOADS, done: true });
  });

  it('gives the same payloads for two cuts at every position pair around the CR/CRLF terminators', () => {
    const text = RECORDED.toString('latin1');
    const first = text.indexOf('\r');
    const last = text.lastIndexOf('\r');
    for (let a = first - 2; a <= last + 2; a += 1) {
      for (let b = a; b <= last + 3; b += 3) {
        expect({ a, b, ...parseInPieces(RECORDED, [a, b]) }).toEqual({
          a,
          b,
          payloads: RECORDED_PAYLOADS,
          done: true,
        });
      }
    }
  });

  it('returns events as soon as their blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push(Buffer.from('data: {"n":1}\n'))).toEqual([]);
    expect(parser.push(Buffer.from('\ndata: {"n"'))).toEqual(['{"n":1}']);
    expect(parser.push(Buffer.from(':2}\n\n'))).toEqual(['{"n":2}']);
    expect(parser.done).toBe(false);
  });

  it.each([
    ['LF terminators', 'data: a\n\ndata: b\n\n', ['a', 'b'], false],
    ['CRLF terminators', 'data: a\r\n\r\ndata: b\r\n\r\n', ['a', 'b'], false],
    ['CR terminators', 'data: a\r\rdata: b\r\r', ['a', 'b'], false],
    ['no space after the colon', 'data:a\n\n', ['a'], false],
    ['only one leading space is removed', 'data:  a\n\n', [' a'], false],
    ['multi-line data joined with LF', 'data: a\ndata: b\n\n', ['a\nb'], false],
    ['a data field without colon is an empty line of data', 'data\n\n', [''], false],
    ['comments and keep-alives only', ': ping\n\n: ping\n\n', [], false],
    ['other fields are ignored', 'event: x\nid: 1\nretry: 10\n\n', [], false],
    ['a final event without its blank line', 'data: a\n\ndata: b', ['a', 'b'], false],
    ['[DONE] ends the stream', 'data: a\n\ndata: [DONE]\n\ndata: b\n\n', ['a'], true],
    ['[DONE] without a trailing blank line', 'data: a\n\ndata: [DONE]', ['a'], true],
    ['empty body', '', [], false],
  ])('%s', (_name, text, payloads, done) => {
    expect(parseWhole(text)).toEqual({ payloads, done });
  });

  it('ignores everything after [DONE], including later pushes', () => {
    const parser = new SseParser();
    expect(parser.push(Buffer.from('data: [DONE]\n\ndata: x\n\n'))).toEqual([]);
    expect(parser.push(Buffer.from('data: y\n\n'))).toEqual([]);
    expect(parser.end()).toEqual([]);
    expect(parser.done).toBe(true);
  });

  // docs/spec/runtime.md §14.4 v1.2: what holds off the transport's idle timeout.
  it.each([
    [': keep-alive\n\n', false],
    ['\n', false],
    ['\r\n\r\n', false],
    [': OPENROUTER PROCESSING\n: ping', false],
    ['data: {"a":1}\n\n', true],
    ['data: {"a":', true],
    [': ping\n\ndata', true],
    ['event: x\n', true],
  ])('a chunk %j carries data: %s', (text, carried) => {
    const parser = new SseParser();
    parser.push(Buffer.from(text));
    expect(parser.carriedData).toBe(carried);
  });

  it('the rest of a data line and the rest of a comment are judged by how the line began', () => {
    const parser = new SseParser();
    parser.push(Buffer.from('data: {"a"'));
    parser.push(Buffer.from(':1}'));
    expect(parser.carriedData).toBe(true);
    // The terminator completes the data line: still delivery.
    expect(parser.push(Buffer.from('\n\n'))).toEqual(['{"a":1}']);
    expect(parser.carriedData).toBe(true);
    parser.push(Buffer.from(': keep'));
    expect(parser.carriedData).toBe(false);
    parser.push(Buffer.from('-alive'));
    expect(parser.carriedData).toBe(false);
    parser.push(Buffer.from('\n\n'));
    expect(parser.carriedData).toBe(false);
  });
});
