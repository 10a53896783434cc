/** The stdio JSONL sink (docs/spec/protocol.md §1.1, §1.8): whole lines, in order, a tick's burst in one writev. */
import { Writable } from 'node:stream';
import { JSONL_FRAMING } from '../../../../src/transports/stdio/stdio-jsonl.server';

/** A stdout that records each system-call-sized write it receives. */
class RecordingStdout extends Writable {
  readonly writes: string[][] = [];

  constructor(highWaterMark = 16_384) {
    super({ highWaterMark, decodeStrings: false });
  }

  override _write(chunk: string, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push([chunk]);
    done();
  }

  override _writev(chunks: Array<{ chunk: string }>, done: () => void): void {
    this.writes.push(chunks.map((entry) => entry.chunk));
    done();
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('stdio JSONL sink', () => {
  it('writes the lines of one tick together, whole and in order, when the tick ends', async () => {
    const stdout = new RecordingStdout();
    const sink = JSONL_FRAMING.createSink(stdout);
    const lines = Array.from({ length: 50 }, (_, n) => `{"jsonrpc":"2.0","id":${n},"result":{}}\n`);
    for (const line of lines) expect(sink.write(line)).toBe(true);
    expect(stdout.writes).toEqual([]);
    await tick();
    expect(stdout.writes).toEqual([lines]);

    sink.write('{"late":1}\n');
    await tick();
    expect(stdout.writes).toEqual([lines, ['{"late":1}\n']]);
  });

  it('reports backpressure past the stream buffer and drains after the flush', async () => {
    const stdout = new RecordingStdout(64);
    const sink = JSONL_FRAMING.createSink(stdout);
    const line = `${JSON.stringify({ text: 'x'.repeat(40) })}\n`;
    expect(sink.write(line)).toBe(true);
    expect(sink.write(line)).toBe(false);
    const drained = new Promise<void>((resolve) => sink.onDrain(resolve));
    await drained;
    expect(stdout.writes.flat()).toEqual([line, line]);
  });
});
