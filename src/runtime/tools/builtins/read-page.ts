/**
 * Pure bounded slicing of decoded text for `read_file` (runtime.md §10.5). Offsets count code points
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

export function readPage(text: string, selection: ReadSelection): ReadPage {
  const parts: string[] = [];
  let offset = 0;
  let line = 1;
  let atLineStart = true;
  let visibleChars = 0;
  let outputLines = 0;
  let originalBytes = 0;
  let truncated = false;
  let nextOffset = selection.kind === 'offset' ? selection.offset : 0;

  for (const char of text) {
    if (isSelected(selection, offset, line, char)) {
      const prefix = selection.showLineNumbers && atLineStart ? `${line}: ` : '';
      originalBytes += prefix.length + utf8Length(char.codePointAt(0) ?? 0);
      const added = prefix.length + 1;
      if (
        truncated ||
        visibleChars + added > READ_MAX_CHARS ||
        (atLineStart && outputLines >= READ_MAX_LINES)
      ) {
        truncated = true;
      } else {
        parts.push(prefix, char);
        visibleChars += added;
        nextOffset = offset + 1;
        if (char === '\n') outputLines += 1;
      }
    } else if (!truncated && selection.kind === 'lines' && line < selection.startLine) {
      nextOffset = offset + 1;
    }
    if (char === '\n') line += 1;
    atLineStart = char === '\n';
    offset += 1;
  }
  return { content: parts.join(''), nextOffset, truncated, originalBytes };
}
