import { JsonlFramer, type FramerEvent } from '../../../../src/transports/stdio/jsonl-framer';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Renders events as strings so tables compare easily. */
function render(events: FramerEvent[]): string[] {
  return events.map((event) => (event.kind === 'line' ? `line:${event.line.toString('utf8')}` : 'too_large'));
}

function feed(max: number, chunks: Array<string | Buffer>): string[] {
  const framer = new JsonlFramer(max);
  const events: FramerEvent[] = [];
  for (const chunk of chunks) events.push(...framer.push(typeof chunk === 'string' ? bytes(chunk) : chunk));
  events.push(...framer.end());
  return render(events);
}

describe('JsonlFramer', () => {
  it.each<[string, Array<string | Buffer>, string[]]>([
    ['splits on \\n', ['a\nb\n'], ['line:a', 'line:b']],
    ['removes one trailing \\r (CRLF)', ['a\r\nb\r\n'], ['line:a', 'line:b']],
    ['removes only one \\r', ['a\r\r\n'], ['line:a\r']],
    ['keeps a \\r that is not before \\n', ['a\rb\n'], ['line:a\rb']],
    [
      'reassembles lines split across chunks',
      ['{"a"', ':1}\n{"b":', '2}\n'],
      ['line:{"a":1}', 'line:{"b":2}'],
    ],
    ['handles CRLF split between chunks', ['a\r', '\nb\n'], ['line:a', 'line:b']],
    ['emits empty lines (the line handler ignores them)', ['\n\n'], ['line:', 'line:']],
    ['emits the final unterminated line at end()', ['a\nb'], ['line:a', 'line:b']],
    ['emits nothing for an empty stream', [], []],
  ])('%s', (_name, chunks, expected) => {
    expect(feed(1024, chunks)).toEqual(expected);
  });

  it('drops a UTF-8 BOM at the very start of the stream', () => {
    expect(feed(1024, [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{}\n')])])).toEqual([
      'line:{}',
    ]);
  });

  it('drops a BOM split across the first chunks', () => {
    expect(
      feed(1024, [Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.from([0xbf, 0x7b, 0x7d, 0x0a])]),
    ).toEqual(['line:{}']);
  });

  it('keeps a BOM that is not at the stream start', () => {
    const framer = new JsonlFramer(1024);
    const events = [
      ...framer.push(bytes('{}\n')),
      ...framer.push(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{}\n')])),
    ];
    expect(events.map((e) => (e.kind === 'line' ? [...e.line] : e.kind))).toEqual([
      [0x7b, 0x7d],
      [0xef, 0xbb, 0xbf, 0x7b, 0x7d],
    ]);
  });

  it('emits a stream that starts like a BOM but is not one unchanged', () => {
    const events = new JsonlFramer(1024).push(Buffer.from([0xef, 0xbb, 0x41, 0x0a]));
    expect(events).toEqual([{ kind: 'line', line: Buffer.from([0xef, 0xbb, 0x41]) }]);
  });

  it('counts the limit in bytes, excluding the terminator', () => {
    // "é" is two bytes: 4 characters, 8 bytes.
    expect(feed(8, ['éééé\n', 'éééé\r\n', 'éééé'])).toEqual(['line:éééé', 'line:éééé', 'line:éééé']);
    expect(feed(7, ['éééé\n'])).toEqual(['too_large']);
  });

  it('reports an oversized line once and continues with the next line', () => {
    expect(feed(4, ['12345\nabc\n', '123456789\n', 'ok'])).toEqual([
      'too_large',
      'line:abc',
      'too_large',
      'line:ok',
    ]);
  });

  it('reports an oversized final unterminated line at end()', () => {
    expect(feed(4, ['12345'])).toEqual(['too_large']);
  });

  it('reports an oversized line as soon as it exceeds the limit, before its terminator arrives', () => {
    const framer = new JsonlFramer(4);
    expect(render(framer.push(bytes('123')))).toEqual([]);
    expect(render(framer.push(bytes('456')))).toEqual(['too_large']);
    expect(render(framer.push(bytes('789')))).toEqual([]);
    expect(render(framer.push(bytes('0\nok\n')))).toEqual(['line:ok']);
  });

  it('does not buffer the rest of an oversized line', () => {
    const framer = new JsonlFramer(16);
    framer.push(bytes('x'.repeat(20)));
    for (let i = 0; i < 100; i += 1) framer.push(Buffer.alloc(1024 * 1024, 0x78));
    // Internal buffer stays empty while discarding: only the next line's bytes are kept.
    expect((framer as unknown as { bufferedBytes: number }).bufferedBytes).toBe(0);
    expect(render(framer.push(bytes('\n{}\n')))).toEqual(['line:{}']);
  });
});
