/**
 * Unified diffs, coloured by line kind (docs/spec/inspector.md §2). Each line is a text node in its
 * own element: a diff of agent-written HTML shows as text.
 */
import { stringOf, type JsonObject } from '../rpc/json-value';

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-context';
}

export function DiffView({ diff, label }: { diff: string; label: string }) {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  return (
    <pre class="diff" aria-label={label}>
      {lines.map((line, index) => (
        <span key={index} class={lineClass(line)}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function prefixed(text: string, prefix: string): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body === '' ? [] : body.split('\n').map((line) => prefix + line);
}

/**
 * The diff a `write_file` / `edit_file` call asks for, from its arguments alone — what the server
 * has today; a v1.2 server's `fileChanges` (items.md §3) carry the real diff and win.
 */
export function diffFromArguments(toolName: string, args: JsonObject): string | null {
  const path = stringOf(args.path);
  if (path === undefined) return null;
  if (toolName === 'write_file' && typeof args.content === 'string') {
    const header =
      args.append === true ? [`--- a/${path}`, `+++ b/${path} (append)`] : [`--- a/${path}`, `+++ b/${path}`];
    const lines = prefixed(args.content, '+');
    return [
      ...header,
      `@@ ${args.append === true ? 'append' : 'new content'}: ${lines.length} lines @@`,
      ...lines,
    ].join('\n');
  }
  if (
    toolName === 'edit_file' &&
    typeof args.old_string === 'string' &&
    typeof args.new_string === 'string'
  ) {
    return [
      `--- a/${path}`,
      `+++ b/${path}`,
      '@@ edit @@',
      ...prefixed(args.old_string, '-'),
      ...prefixed(args.new_string, '+'),
    ].join('\n');
  }
  return null;
}
