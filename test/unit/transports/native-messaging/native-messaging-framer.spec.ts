import {
  encodeFrame,
  NativeMessagingFramer,
  type ByteOrder,
} from '../../../../src/transports/native-messaging/native-messaging-framer';
import type { FramerEvent } from '../../../../src/transports/stdio/stdio-framing';

/** A frame as the browser writes it: 32-bit length (little-endian unless told), then the bytes. */
function frame(body: string | Buffer, order: ByteOrder = 'LE', declaredLength?: number): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = Buffer.alloc(4);
  if (order === 'LE') header.writeUInt32LE(declaredLength ?? bytes.length);
  else header.writeUInt32BE(declaredLength ?? bytes.length);
  return Buffer.concat([header, bytes]);
}

function render(events: FramerEvent[]): string[] {
  return events.map((event) =>
    event.kind === 'line' ? `message:${event.line.toString('utf8')}` : 'too_large',
  );
}

/** Feeds `stream` cut at the given offsets, then EOF. */
function feedSplit(max: number, stream: Buffer, cuts: number[], order: ByteOrder = 'LE'): string[] {
  const framer = new NativeMessagingFramer(max, order);
  const events: FramerEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, stream.length]) {
    events.push(...framer.push(stream.subarray(start, cut)));
    start = cut;
  }
  events.push(...framer.end());
  return render(events);
}

const TWO = Buffer.concat([frame('{"a":1}'), frame('{"b":"é"}')]);

describe('NativeMessagingFramer (docs/spec/native-messaging.md §1)', () => {
  it.each<[string, Buffer, number[], string[]]>([
    ['one chunk, two frames', TWO, [], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['split inside the first header', TWO, [1], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['split after the header', TWO, [4], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['split inside a body', TWO, [7], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['split between frames', TWO, [11], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['split inside the second header', TWO, [13], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['split inside a UTF-8 character', TWO, [TWO.length - 3], ['message:{"a":1}', 'message:{"b":"é"}']],
    ['zero-length frame: an empty message (ignored like a blank line)', frame(''), [], ['message:']],
    [
      'zero-length frame between two',
      Buffer.concat([frame('1'), frame(''), frame('2')]),
      [],
      ['message:1', 'message:', 'message:2'],
    ],
    [
      'a truncated body at EOF is ignored',
      Buffer.concat([frame('{}'), frame('{"x":1}').subarray(0, 8)]),
      [],
      ['message:{}'],
    ],
    [
      'a truncated header at EOF is ignored',
      Buffer.concat([frame('{}'), Buffer.from([5, 0])]),
      [],
      ['message:{}'],
    ],
    ['a header with no body at EOF is ignored', frame('', 'LE', 10), [], []],
    ['an empty stream yields nothing', Buffer.alloc(0), [], []],
  ])('%s', (_name, stream, cuts, expected) => {
    expect(feedSplit(1024, stream, cuts)).toEqual(expected);
  });

  it('yields the same messages wherever the stream is split, down to single bytes', () => {
    const stream = Buffer.concat([frame('{"a":1}'), frame(''), frame('{"b":"é€😀"}'), frame('[]')]);
    const whole = feedSplit(1024, stream, []);
    for (let cut = 1; cut < stream.length; cut += 1) expect(feedSplit(1024, stream, [cut])).toEqual(whole);
    const everyByte = Array.from({ length: stream.length - 1 }, (_, index) => index + 1);
    expect(feedSplit(1024, stream, everyByte)).toEqual(whole);
  });

  it('reports an oversized frame once, as soon as its header is read, skips its body and goes on', () => {
    const framer = new NativeMessagingFramer(4, 'LE');
    const big = frame('123456789');
    expect(render(framer.push(big.subarray(0, 4)))).toEqual(['too_large']);
    expect(render(framer.push(big.subarray(4, 6)))).toEqual([]);
    expect(render(framer.push(Buffer.concat([big.subarray(6), frame('ok')])))).toEqual(['message:ok']);
  });

  it('counts the limit in bytes of the body: exactly the limit passes, one more is too large', () => {
    // "é" is two bytes: 4 characters, 8 bytes.
    expect(feedSplit(8, frame('éééé'), [])).toEqual(['message:éééé']);
    expect(feedSplit(7, Buffer.concat([frame('éééé'), frame('ok')]), [])).toEqual([
      'too_large',
      'message:ok',
    ]);
  });

  it('does not buffer the body of an oversized frame', () => {
    const framer = new NativeMessagingFramer(16, 'LE');
    framer.push(frame('', 'LE', 20 * 1024 * 1024));
    for (let i = 0; i < 10; i += 1) framer.push(Buffer.alloc(1024 * 1024, 0x78));
    expect((framer as unknown as { body: Buffer | null }).body).toBeNull();
    expect(framer.holdsIncompleteFrame).toBe(true);
    framer.push(Buffer.alloc(10 * 1024 * 1024, 0x78));
    expect(framer.holdsIncompleteFrame).toBe(false);
    expect(render(framer.push(frame('{}')))).toEqual(['message:{}']);
  });

  it('reads lengths in the byte order it is given (native order: little-endian on every supported platform)', () => {
    expect(feedSplit(1024, frame('{"be":true}', 'BE'), [2], 'BE')).toEqual(['message:{"be":true}']);
    // A little-endian header read as big-endian is a huge length: too large, never a message.
    expect(feedSplit(1024, frame('{}', 'LE'), [], 'BE')).toEqual(['too_large']);
  });

  it('encodes a frame as the length in bytes of the UTF-8 body, then the body', () => {
    const encoded = encodeFrame('{"t":"é😀"}', 'LE');
    expect(encoded.readUInt32LE(0)).toBe(Buffer.byteLength('{"t":"é😀"}'));
    expect(encoded.subarray(4).toString('utf8')).toBe('{"t":"é😀"}');
    expect(encodeFrame('{}', 'BE').readUInt32BE(0)).toBe(2);
    expect(
      feedSplit(1024, Buffer.concat([encodeFrame('{"a":1}', 'LE'), encodeFrame('', 'LE')]), [3]),
    ).toEqual(['message:{"a":1}', 'message:']);
  });
});
