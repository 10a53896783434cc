/** Pure regex construction and per-file matching for `search_files` (docs/spec/runtime.md §10.4). */
import type { ContentRow } from './search-report';
import { splitLines } from './text-codec';
import { BuiltinToolError } from './tool-error';

export interface RegexOptions {
  literal: boolean;
  /** Explicit override; smart case when undefined. */
  caseSensitive?: boolean;
  multiline: boolean;
}

const SYNTAX_CHARACTERS = /[\\^$.*+?()[\]{}|/]/g;
const UPPERCASE_LETTER = /\p{Lu}/u;

export function escapeRegExp(text: string): string {
  return text.replace(SYNTAX_CHARACTERS, '\\$&');
}

/** Smart case: case-insensitive unless the pattern has an uppercase letter. */
export function isCaseSensitive(pattern: string, override: boolean | undefined): boolean {
  return override ?? UPPERCASE_LETTER.test(pattern);
}

export function buildSearchRegex(pattern: string, options: RegexOptions): RegExp {
  const flags = `gu${isCaseSensitive(pattern, options.caseSensitive) ? '' : 'i'}${options.multiline ? 'ms' : ''}`;
  try {
    return new RegExp(options.literal ? escapeRegExp(pattern) : pattern, flags);
  } catch (error) {
    const detail = (error as Error).message.replace(/^Invalid regular expression: /, '');
    throw new BuiltinToolError('invalid_arguments', `Invalid regular expression: ${detail}`);
  }
}

export interface MatchOptions {
  /** Global regex from {@link buildSearchRegex}. */
  regex: RegExp;
  multiline: boolean;
  contextBefore: number;
  contextAfter: number;
  /** Rows are only needed for `content` output. */
  collectRows: boolean;
}

export interface FileMatches {
  matches: number;
  rows: ContentRow[];
}

function countMatches(regex: RegExp, text: string): number {
  let count = 0;
  for (const _match of text.matchAll(regex)) count += 1;
  return count;
}

function matchWholeText(path: string, text: string, options: MatchOptions): FileMatches {
  const rows: ContentRow[] = [];
  let matches = 0;
  let line = 1;
  let scannedTo = 0;
  for (const match of text.matchAll(options.regex)) {
    matches += 1;
    if (!options.collectRows) continue;
    for (let index = text.indexOf('\n', scannedTo); index !== -1 && index < match.index;) {
      line += 1;
      index = text.indexOf('\n', index + 1);
    }
    scannedTo = match.index;
    rows.push({ path, line, text: match[0], isMatch: true });
  }
  return { matches, rows };
}

function matchLines(path: string, text: string, options: MatchOptions): FileMatches {
  const lines = splitLines(text);
  const matched = new Set<number>();
  let matches = 0;
  lines.forEach((lineText, index) => {
    const count = countMatches(options.regex, lineText);
    if (count > 0) {
      matches += count;
      matched.add(index + 1);
    }
  });
  if (!options.collectRows || matches === 0) return { matches, rows: [] };
  const selected = new Set<number>();
  for (const line of matched) {
    const first = Math.max(1, line - options.contextBefore);
    const last = Math.min(lines.length, line + options.contextAfter);
    for (let current = first; current <= last; current += 1) selected.add(current);
  }
  const rows = [...selected]
    .sort((a, b) => a - b)
    .map((line) => ({ path, line, text: lines[line - 1], isMatch: matched.has(line) }));
  return { matches, rows };
}

export function matchFile(path: string, text: string, options: MatchOptions): FileMatches {
  return options.multiline ? matchWholeText(path, text, options) : matchLines(path, text, options);
}
