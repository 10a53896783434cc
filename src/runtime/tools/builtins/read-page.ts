/**
 * Pure bounded slicing of decoded text for `read_file` (docs/spec/runtime.md §10.5). Offsets count code points
 * of the text without its BOM; line terminators stay in the output. A page stops before the first
 * character that would exceed 12 000 output characters (line-number prefixes included) or start line
 * 2 001 of the output.
 */

export const READ_MAX_LINES = 2_000;
export const READ_MAX_CHARS = 12_000;

export type ReadSelection =
  | { kind: 'lines'; startLine: number; endLine?: number; showLineNumbers: boolean }
  | { kind: 'offset'; offset: number; showLineNumbers: boolean };

export interface ReadPage {
  content: string;
  /** Offset just after the last character returned (where a cursor continues). */
  nextOffset: number;
  truncated: boolean;
  /** UTF-8 bytes the whole selection would have had without the limits. */
  originalBytes: number;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

function isSelected(selection: ReadSelection, offset: number, line: number, char: string): boolean {
  if (selection.kind === 'offset') return offset >= selection.offset;
  if (line < selection.startLine) return false;
  if (selection.endLine === undefined || line < selection.endLine) return true;
  // The last requested line is returned without its line feed.
  return line === selection.endLine && char !== '\n';
}

/**
 * {@link readPage} fed piecewise, so that a file is decoded and paged chunk by chunk and never held
 * whole in memory: only the page itself is kept.
 */
export class PageReader {
  private readonly parts: string[] = [];
  private offset = 0;
  private line = 1;
  private atLineStart = true;
  private visibleChars = 0;
  private outputLines = 0;
  private originalBytes = 0;
  private truncated = false;
  private nextOffset: number;

  constructor(private readonly selection: ReadSelection) {
    this.nextOffset = selection.kind === 'offset' ? selection.offset : 0;
  }

  /** Code points seen so far (the text's length once everything was pushed). */
  get length(): number {
    return this.offset;
  }

  push(text: string): this {
    const { selection } = this;
    for (const char of text) {
      if (isSelected(selection, this.offset, this.line, char)) {
        const prefix = selection.showLineNumbers && this.atLineStart ? `${this.line}: ` : '';
        this.originalBytes += prefix.length + utf8Length(char.codePointAt(0) ?? 0);
        const added = prefix.length + 1;
        if (
          this.truncated ||
          this.visibleChars + added > READ_MAX_CHARS ||
          (this.atLineStart && this.outputLines >= READ_MAX_LINES)
        ) {
          this.truncated = true;
        } else {
          this.parts.push(prefix, char);
          this.visibleChars += added;
          this.nextOffset = this.offset + 1;
          if (char === '\n') this.outputLines += 1;
        }
      } else if (!this.truncated && selection.kind === 'lines' && this.line < selection.startLine) {
        this.nextOffset = this.offset + 1;
      }
      if (char === '\n') this.line += 1;
      this.atLineStart = char === '\n';
      this.offset += 1;
    }
    return this;
  }

  finish(): ReadPage {
    return {
      content: this.parts.join(''),
      nextOffset: this.nextOffset,
      truncated: this.truncated,
      originalBytes: this.originalBytes,
    };
  }
}

export function readPage(text: string, selection: ReadSelection): ReadPage {
  return new PageReader(selection).push(text).finish();
}
