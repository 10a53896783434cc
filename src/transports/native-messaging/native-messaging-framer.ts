/**
 * Native messaging framing (docs/spec/native-messaging.md §1): every message is a 32-bit unsigned length in
 * native byte order followed by that many bytes of UTF-8 JSON. Pure: fed with byte chunks, the
 * decoder returns the events they complete, in the same shape as the JSONL framer's, so the stdio
 * server hands both to the core the same way.
 *
 * A frame longer than `maxMessageBytes` is reported once as `too_large` as soon as its header is
 * read, and its body is skipped without being buffered. A zero-length frame is an empty message
 * (the line handler ignores it, like a blank JSONL line). A frame still incomplete at EOF is
 * ignored (§1: "a truncated frame at EOF is ignored").
 */
import { endianness } from 'node:os';
import type { FramerEvent, InboundFramer } from '../stdio/stdio-framing';

export type ByteOrder = 'LE' | 'BE';

/** Bytes of the length prefix. */
export const FRAME_HEADER_BYTES = 4;

/** The byte order of this machine: the browsers write lengths in native order. */
export const NATIVE_BYTE_ORDER: ByteOrder = endianness();

export class NativeMessagingFramer implements InboundFramer {
  /** Header bytes received so far (fewer than four). */
  private header = Buffer.alloc(0);
  /** The body being collected, once its header is known. */
  private body: Buffer | null = null;
  private bodyFilled = 0;
  /** Body bytes still to skip of an oversized frame. */
  private skipping = 0;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly byteOrder: ByteOrder = NATIVE_BYTE_ORDER,
  ) {}

  push(chunk: Buffer): FramerEvent[] {
    const events: FramerEvent[] = [];
    let offset = 0;
    while (offset < chunk.length) {
      if (this.skipping > 0) {
        const skipped = Math.min(this.skipping, chunk.length - offset);
        this.skipping -= skipped;
        offset += skipped;
        continue;
      }
      if (this.body !== null) {
        const copied = chunk.copy(this.body, this.bodyFilled, offset);
        this.bodyFilled += copied;
        offset += copied;
        if (this.bodyFilled === this.body.length) this.finishBody(events);
        continue;
      }
      const needed = FRAME_HEADER_BYTES - this.header.length;
      const taken = chunk.subarray(offset, offset + needed);
      this.header = this.header.length === 0 ? Buffer.from(taken) : Buffer.concat([this.header, taken]);
      offset += taken.length;
      if (this.header.length === FRAME_HEADER_BYTES) this.startFrame(events);
    }
    return events;
  }

  /** End of input: an incomplete frame is dropped; nothing is emitted. */
  end(): FramerEvent[] {
    this.header = Buffer.alloc(0);
    this.body = null;
    this.bodyFilled = 0;
    this.skipping = 0;
    return [];
  }

  /** True while part of a frame has been read and the rest has not (what EOF would cut off). */
  get holdsIncompleteFrame(): boolean {
    return this.header.length > 0 || this.body !== null || this.skipping > 0;
  }

  private startFrame(events: FramerEvent[]): void {
    const length = this.byteOrder === 'LE' ? this.header.readUInt32LE(0) : this.header.readUInt32BE(0);
    this.header = Buffer.alloc(0);
    if (length > this.maxMessageBytes) {
      events.push({ kind: 'too_large' });
      this.skipping = length;
      return;
    }
    if (length === 0) {
      events.push({ kind: 'line', line: Buffer.alloc(0) });
      return;
    }
    this.body = Buffer.allocUnsafe(length);
    this.bodyFilled = 0;
  }

  private finishBody(events: FramerEvent[]): void {
    const line = this.body as Buffer;
    this.body = null;
    this.bodyFilled = 0;
    events.push({ kind: 'line', line });
  }
}

/** One outbound frame: the length prefix, then the UTF-8 bytes of `json`. */
export function encodeFrame(json: string, byteOrder: ByteOrder = NATIVE_BYTE_ORDER): Buffer {
  const length = Buffer.byteLength(json, 'utf8');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  if (byteOrder === 'LE') frame.writeUInt32LE(length, 0);
  else frame.writeUInt32BE(length, 0);
  frame.write(json, FRAME_HEADER_BYTES, 'utf8');
  return frame;
}
