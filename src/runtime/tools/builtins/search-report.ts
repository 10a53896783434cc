/** Pure rendering of `search_files` results as the text formats of docs/spec/runtime.md §10.4. */
import { codePointLength, firstCodePoints, splitLines } from './text-codec';

export type SearchOutputMode = 'files_with_matches' | 'content' | 'count';
export const SEARCH_OUTPUT_MODES: readonly SearchOutputMode[] = ['files_with_matches', 'content', 'count'];

export const MAX_RESULT_LINES = 500;
export const MAX_RESULT_CHARS = 30_000;

export interface ContentRow {
  path: string;
  line: number;
  text: string;
  isMatch: boolean;
}

export interface SearchFindings {
  /** Sorted by path. */
  fileCounts: Array<[path: string, matches: number]>;
  /** Sorted by path, then line. */
  rows: ContentRow[];
  totalMatches: number;
}

export interface ReportOptions {
  pattern: string;
  outputMode: SearchOutputMode;
  offset: number;
  /** 0 = unlimited. */
  headLimit: number;
  showLineNumbers: boolean;
}

export interface SearchReport {
  text: string;
  totalItems: number;
  returnedCount: number;
  headLimited: boolean;
  contentTruncated: boolean;
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

/** Single quotes, or double quotes when the pattern has `'` but no `"`; escapes as in the spec. */
export function quotePattern(pattern: string): string {
  const quote = pattern.includes("'") && !pattern.includes('"') ? '"' : "'";
  let body = '';
  for (const char of pattern) {
    body += char === quote ? `\\${quote}` : (QUOTE_ESCAPES[char] ?? char);
  }
  return `${quote}${body}${quote}`;
}

function page<T>(items: T[], offset: number, headLimit: number): { visible: T[]; headLimited: boolean } {
  if (offset >= items.length) return { visible: [], headLimited: false };
  const rest = items.slice(offset);
  if (headLimit === 0) return { visible: rest, headLimited: false };
  return { visible: rest.slice(0, headLimit), headLimited: rest.length > headLimit };
}

function contentLines(rows: ContentRow[], showLineNumbers: boolean): string[] {
  const lines: string[] = [];
  let currentFile: string | undefined;
  for (const row of rows) {
    if (row.path !== currentFile) {
      lines.push(`File: ${row.path}`);
      currentFile = row.path;
    }
    const marker = row.isMatch ? '' : '-';
    lines.push(showLineNumbers ? `  ${marker}${row.line}: ${row.text}` : `  ${marker}${row.text}`);
  }
  return lines;
}

/** Cuts text beyond 500 lines or 30 000 characters and appends the TRUNCATED footer. */
export function truncateResultText(
  text: string,
  totalMatches: number,
  fileCount: number,
): { text: string; truncated: boolean } {
  const lines = splitLines(text);
  const chars = codePointLength(text);
  if (lines.length <= MAX_RESULT_LINES && chars <= MAX_RESULT_CHARS) return { text, truncated: false };
  let cut: string;
  if (chars > MAX_RESULT_CHARS) {
    cut = firstCodePoints(text, MAX_RESULT_CHARS);
    const lastNewline = cut.lastIndexOf('\n');
    // Prefer ending on a whole line unless that would drop more than a fifth of the budget.
    if (codePointLength(cut.slice(0, Math.max(lastNewline, 0))) > MAX_RESULT_CHARS * 0.8) {
      cut = cut.slice(0, lastNewline);
    }
  } else {
    cut = lines.slice(0, MAX_RESULT_LINES).join('\n');
  }
  const footer =
    '\n\n--- TRUNCATED ---\n' +
    `Shown: ${splitLines(cut).length} lines, ${codePointLength(cut)} characters\n` +
    `Total matches: ${totalMatches} in ${fileCount} files\n` +
    'Use a narrower pattern/path/glob/type/head_limit for more focused output.';
  return { text: cut + footer, truncated: true };
}

export function renderSearchReport(findings: SearchFindings, options: ReportOptions): SearchReport {
  const quoted = quotePattern(options.pattern);
  const fileCount = findings.fileCounts.length;
  let lines: string[];
  let totalItems: number;
  let returnedCount: number;
  let headLimited: boolean;

  if (options.outputMode === 'files_with_matches') {
    const files = findings.fileCounts.map(([path]) => path);
    const paged = page(files, options.offset, options.headLimit);
    lines = [`Found ${fileCount} files matching pattern ${quoted}`];
    if (paged.visible.length === 0) lines.push('No matches found.');
    else {
      if (paged.headLimited) lines.push(`Showing first ${paged.visible.length} files.`);
      lines = lines.concat(paged.visible);
    }
    ({ headLimited } = paged);
    totalItems = files.length;
    returnedCount = paged.visible.length;
  } else if (options.outputMode === 'count') {
    const paged = page(findings.fileCounts, options.offset, options.headLimit);
    lines = [`Match counts for pattern ${quoted}`];
    if (paged.headLimited && paged.visible.length > 0)
      lines.push(`Showing first ${paged.visible.length} files.`);
    lines = lines.concat(paged.visible.map(([path, count]) => `${path}: ${count}`));
    lines.push(`Total: ${findings.totalMatches} matches in ${fileCount} files`);
    ({ headLimited } = paged);
    totalItems = findings.fileCounts.length;
    returnedCount = paged.visible.length;
  } else {
    const paged = page(findings.rows, options.offset, options.headLimit);
    lines = [`Found ${findings.totalMatches} matches in ${fileCount} files for pattern ${quoted}`];
    if (paged.visible.length === 0) lines.push('No matches found.');
    else {
      if (paged.headLimited) lines.push(`Showing first ${paged.visible.length} rows.`);
      lines = lines.concat(contentLines(paged.visible, options.showLineNumbers));
    }
    ({ headLimited } = paged);
    totalItems = findings.rows.length;
    returnedCount = paged.visible.length;
  }

  const bounded = truncateResultText(lines.join('\n'), findings.totalMatches, fileCount);
  return { text: bounded.text, totalItems, returnedCount, headLimited, contentTruncated: bounded.truncated };
}
