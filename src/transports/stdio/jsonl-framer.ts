/**
 * Incremental JSONL framer (docs/spec/protocol.md §1.1, §1.2 step 1). Pure: fed with byte chunks, it returns
 * the events they complete. Lines are split on `\n`; one trailing `\r` is removed; a UTF-8 BOM at
 * the very start of the stream is dropped; a final unterminated line is emitted by `end()`.
 * A line longer than `maxMessageBytes` (bytes, terminator excluded) is reported once as `too_large`
 * and the rest of it is skipped without being buffered. Lines are raw bytes: UTF-8 validity is the
 * decoder's concern.
 */

import type { FramerEvent, InboundFramer } from './stdio-framing';

export type { FramerEvent } from './stdio-framing';

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export class JsonlFramer implements InboundFramer {
  private readonly parts: Buffer[] = [];
  private bufferedBytes = 0;
  /** True while skipping the remainder of an oversized line. */
  private discarding = false;
  /** Bytes seen so far that may still be a BOM at stream start; null once decided. */
  private bomProbe: Buffer | null = Buffer.alloc(0);

  constructor(private readonly maxMessageBytes: number) {}

  push(chunk: Buffer): FramerEvent[] {
    const data = this.stripLeadingBom(chunk);
    const events: FramerEvent[] = [];
    if (data === null) return events;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(LF, start);
      if (newline === -1) {
        this.append(data.subarray(start), events);
        break;
      }
      this.append(data.subarray(start, newline), events);
      this.finishLine(events, true);
      start = newline + 1;
    }
    return events;
  }

  /** End of input: a pending unterminated line is emitted (or reported as too large). */
  end(): FramerEvent[] {
    const events: FramerEvent[] = [];
    if (this.bomProbe !== null && this.bomProbe.length > 0) {
      const pending = this.bomProbe;
      this.bomProbe = null;
      this.append(pending, events);
    }
    this.bomProbe = null;
    if (this.bufferedBytes > 0 || this.discarding) this.finishLine(events, false);
    return events;
  }

  /**
   * Returns the chunk without a leading BOM, or null while the first bytes could still be one.
   * The BOM can arrive split across chunks, so up to three bytes are held back until it is decided.
   */
  private stripLeadingBom(chunk: Buffer): Buffer | null {
    if (this.bomProbe === null) return chunk;
    const probe = Buffer.concat([this.bomProbe, chunk]);
    const comparable = Math.min(probe.length, BOM.length);
    if (probe.subarray(0, comparable).equals(BOM.subarray(0, comparable))) {
      if (probe.length < BOM.length) {
        this.bomProbe = probe;
        return null;
      }
      this.bomProbe = null;
      return probe.subarray(BOM.length);
    }
    this.bomProbe = null;
    return probe;
  }

  private append(bytes: Buffer, events: FramerEvent[]): void {
    if (this.discarding || bytes.length === 0) return;
    // One extra byte is allowed for a `\r` that a following `\n` would turn into the terminator.
    if (this.bufferedBytes + bytes.length > this.maxMessageBytes + 1) {
      this.parts.length = 0;
      this.bufferedBytes = 0;
      this.discarding = true;
      events.push({ kind: 'too_large' });
      return;
    }
    this.parts.push(bytes);
    this.bufferedBytes += bytes.length;
  }

  private finishLine(events: FramerEvent[], terminated: boolean): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.bufferedBytes);
    this.parts.length = 0;
    this.bufferedBytes = 0;
    if (terminated && line.length > 0 && line[line.length - 1] === CR)
      line = line.subarray(0, line.length - 1);
    events.push(line.length > this.maxMessageBytes ? { kind: 'too_large' } : { kind: 'line', line });
  }
}
