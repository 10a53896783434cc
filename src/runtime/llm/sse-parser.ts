/**
 * Incremental Server-Sent Events parser (docs/spec/runtime.md §14.3). Fed raw body bytes split anywhere —
 * inside a UTF-8 character, inside a line, between `\r` and `\n` — it returns the `data` payload of
 * each complete event. Comments, other fields and keep-alives are ignored; `data: [DONE]` ends the
 * stream and everything after it is ignored. `carriedData` tells the transport whether a chunk held
 * anything but comments and blank lines: keep-alives alone do not hold off its idle timeout
 * (docs/spec/runtime.md §14.4 v1.2).
 *
 * Lines are found on bytes (CR and LF never occur inside a UTF-8 multi-byte sequence) and only
 * `data` values are decoded, each on its own: ASCII payloads then stay compact one-byte strings,
 * which `JSON.parse` reads fastest.
 */
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DONE_MARKER = '[DONE]';

function isUtf8Bom(line: Buffer, start: number, end: number): boolean {
  return end - start >= 3 && line[start] === 0xef && line[start + 1] === 0xbb && line[start + 2] === 0xbf;
}

export class SseParser {
  /** Bytes of the current, not yet terminated line. */
  private pending: Buffer[] = [];
  /** A chunk ended with `\r`: a `\n` at the start of the next chunk belongs to the same terminator. */
  private skipLeadingLineFeed = false;
  private firstLine = true;
  /** Data of the event being read; `null` while the event has no `data` line. */
  private eventData: string | null = null;
  private sawDone = false;
  /** The last `push` held a byte of a line that is neither a comment nor blank. */
  private sawData = false;

  /** True once `data: [DONE]` was read. */
  get done(): boolean {
    return this.sawDone;
  }

  /**
   * Whether the last `push` carried data: part of a field line (`data:` above all), complete or
   * still arriving. A chunk of only comments (`: keep-alive`) and blank lines does not.
   */
  get carriedData(): boolean {
    return this.sawData;
  }

  /** Feeds one body chunk; returns the payloads of the events it completed, in order. */
  push(chunk: Uint8Array): string[] {
    const payloads: string[] = [];
    this.sawData = false;
    if (this.sawDone || chunk.length === 0) return payloads;
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

    let position = 0;
    if (this.skipLeadingLineFeed) {
      this.skipLeadingLineFeed = false;
      if (bytes[0] === LF) position = 1;
    }
    let lineStart = position;
    let lf = bytes.indexOf(LF, position);
    let cr = bytes.indexOf(CR, position);
    while (!this.sawDone) {
      if (lf !== -1 && lf < position) lf = bytes.indexOf(LF, position);
      if (cr !== -1 && cr < position) cr = bytes.indexOf(CR, position);
      if (lf === -1 && cr === -1) break;
      let lineEnd: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        lineEnd = lf;
        position = lf + 1;
      } else {
        lineEnd = cr;
        if (cr + 1 < bytes.length) {
          position = bytes[cr + 1] === LF ? cr + 2 : cr + 1;
        } else {
          position = cr + 1;
          this.skipLeadingLineFeed = true;
        }
      }
      if (this.pending.length > 0) {
        this.pending.push(bytes.subarray(lineStart, lineEnd));
        const line = Buffer.concat(this.pending);
        this.pending = [];
        this.acceptLine(line, 0, line.length, payloads);
      } else {
        this.acceptLine(bytes, lineStart, lineEnd, payloads);
      }
      lineStart = position;
    }
    if (!this.sawDone && lineStart < bytes.length) {
      // A line still arriving (one large `data:` line can span many chunks) is data unless it is a
      // comment, which its first byte tells.
      const first = this.pending.length > 0 ? this.pending[0][0] : bytes[lineStart];
      if (first !== COLON) this.sawData = true;
      // Copied: the caller may reuse its buffer.
      this.pending.push(Buffer.from(bytes.subarray(lineStart)));
    }
    return payloads;
  }

  /** Signals end of body: a final line or event without its terminator is still delivered. */
  end(): string[] {
    const payloads: string[] = [];
    if (this.sawDone) return payloads;
    if (this.pending.length > 0) {
      const line = Buffer.concat(this.pending);
      this.pending = [];
      this.acceptLine(line, 0, line.length, payloads);
    }
    if (!this.sawDone) this.dispatch(payloads);
    return payloads;
  }

  private acceptLine(bytes: Buffer, lineStart: number, end: number, payloads: string[]): void {
    let start = lineStart;
    if (this.firstLine) {
      this.firstLine = false;
      if (isUtf8Bom(bytes, start, end)) start += 3;
    }
    if (start === end) {
      this.dispatch(payloads);
      return;
    }
    if (bytes[start] !== COLON) this.sawData = true;
    // Only the `data` field matters; comments (leading `:`) and every other field are skipped.
    if (
      end - start < 4 ||
      bytes[start] !== 0x64 /* d */ ||
      bytes[start + 1] !== 0x61 /* a */ ||
      bytes[start + 2] !== 0x74 /* t */ ||
      bytes[start + 3] !== 0x61 /* a */
    ) {
      return;
    }
    let value = '';
    if (end - start > 4) {
      if (bytes[start + 4] !== COLON) return;
      let valueStart = start + 5;
      if (valueStart < end && bytes[valueStart] === SPACE) valueStart += 1;
      value = bytes.toString('utf8', valueStart, end);
    }
    this.eventData = this.eventData === null ? value : `${this.eventData}\n${value}`;
  }

  private dispatch(payloads: string[]): void {
    const data = this.eventData;
    if (data === null) return;
    this.eventData = null;
    if (data.trim() === DONE_MARKER) {
      this.sawDone = true;
      return;
    }
    payloads.push(data);
  }
}
