/**
 * A single-hunk unified diff between two texts: the changed region is everything between the common
 * leading and trailing lines, shown with up to 3 context lines. Bounded to 12 000 characters because
 * it travels in result metadata.
 */

export const DIFF_MAX_CHARS = 12_000;
const CONTEXT_LINES = 3;

export interface BoundedDiff {
  diff: string;
  truncated: boolean;
  additions: number;
  deletions: number;
}

/** Lines with their terminators kept, so that a changed line ending counts as a change. */
function splitKeepingTerminators(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function hunkRange(start: number, count: number): string {
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

function renderLine(marker: string, line: string): string {
  const hasNewline = line.endsWith('\n');
  let body = hasNewline ? line.slice(0, -1) : line;
  if (hasNewline && body.endsWith('\r')) body = body.slice(0, -1);
  return `${marker}${body}\n${hasNewline ? '' : '\\ No newline at end of file\n'}`;
}

export function boundedUnifiedDiff(displayPath: string, before: string, after: string): BoundedDiff {
  const old = splitKeepingTerminators(before);
  const next = splitKeepingTerminators(after);
  let prefix = 0;
  while (prefix < old.length && prefix < next.length && old[prefix] === next[prefix]) prefix += 1;
  let suffix = 0;
  while (
    prefix + suffix < old.length &&
    prefix + suffix < next.length &&
    old[old.length - 1 - suffix] === next[next.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const oldChangedEnd = old.length - suffix;
  const nextChangedEnd = next.length - suffix;
  const additions = nextChangedEnd - prefix;
  const deletions = oldChangedEnd - prefix;
  if (additions === 0 && deletions === 0) return { diff: '', truncated: false, additions: 0, deletions: 0 };

  const contextStart = Math.max(prefix - CONTEXT_LINES, 0);
  const oldHunkEnd = Math.min(oldChangedEnd + CONTEXT_LINES, old.length);
  const nextHunkEnd = Math.min(nextChangedEnd + CONTEXT_LINES, next.length);
  const parts = [
    `--- ${displayPath}\n`,
    `+++ ${displayPath}\n`,
    `@@ -${hunkRange(contextStart, oldHunkEnd - contextStart)} +${hunkRange(contextStart, nextHunkEnd - contextStart)} @@\n`,
    ...old.slice(contextStart, prefix).map((line) => renderLine(' ', line)),
    ...old.slice(prefix, oldChangedEnd).map((line) => renderLine('-', line)),
    ...next.slice(prefix, nextChangedEnd).map((line) => renderLine('+', line)),
    ...next.slice(nextChangedEnd, nextHunkEnd).map((line) => renderLine(' ', line)),
  ];
  const diff = parts.join('');
  return diff.length <= DIFF_MAX_CHARS
    ? { diff, truncated: false, additions, deletions }
    : { diff: diff.slice(0, DIFF_MAX_CHARS), truncated: true, additions, deletions };
}
