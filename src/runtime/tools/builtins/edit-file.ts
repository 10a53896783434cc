/** `edit_file` (docs/spec/runtime.md §10.5): exact, baseline-guarded string replacement. */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

import type { ToolContext, ToolOutput } from '../types';
import { baselineProblem, getBaseline, recordBaseline } from './baselines';
import { openConfinedRegularFile, overwriteHandle } from './confined-open';
import { decodeUtf8Strict, encodeUtf8, sha256Hex } from './text-codec';
import { optionalBoolean, requiredString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { jsonSuccessOutput } from './tool-output';
import { boundedUnifiedDiff } from './unified-diff';
import { resolveWorkspacePath } from './workspace-path';
import { assertSandboxAllowsWrite } from './sandbox-write-check';

const EDIT_MESSAGES = {
  file_not_read: 'Read the file with read_file before editing.',
  file_changed_since_read: 'File changed since it was last read. Re-read it before editing.',
} as const;

/** Non-overlapping occurrences, counted left to right (as a replacement would consume them). */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    count += 1;
  }
  return count;
}

const BARE_LF = /(?<!\r)\n/;

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Literal replacement (no `$` patterns): every occurrence, or the first one only. */
export function replaceLiteral(text: string, search: string, replacement: string, all: boolean): string {
  if (all) return text.split(search).join(replacement);
  const index = text.indexOf(search);
  return index === -1 ? text : text.slice(0, index) + replacement + text.slice(index + search.length);
}

export function editFileHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const rawPath = requiredString(args, 'path');
    const oldString = requiredString(args, 'old_string');
    const newString = requiredString(args, 'new_string');
    const replaceAll = optionalBoolean(args, 'replace_all') ?? false;
    const target = await resolveWorkspacePath(ctx.workspace, rawPath);
    assertSandboxAllowsWrite(ctx, target.absolute);

    // The baseline check and the write go through one descriptor, verified inside the workspace.
    const handle = await openConfinedRegularFile(ctx.workspace, target.absolute, rawPath, constants.O_RDWR);
    try {
      return await editOpenFile(ctx, handle, target.relative, { oldString, newString, replaceAll });
    } finally {
      await handle.close();
    }
  });
}

interface EditRequest {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

async function editOpenFile(
  ctx: ToolContext,
  handle: FileHandle,
  relative: string,
  { oldString, newString, replaceAll }: EditRequest,
): Promise<ToolOutput> {
  if (oldString === '') throw new BuiltinToolError('old_string_empty', '`old_string` cannot be empty.');
  if (oldString === newString) {
    throw new BuiltinToolError('no_changes', 'No changes: old_string and new_string are identical.');
  }

  const bytes = await handle.readFile();
  const problem = baselineProblem(getBaseline(ctx, relative), sha256Hex(bytes), true);
  if (problem !== null) throw new BuiltinToolError(problem, EDIT_MESSAGES[problem]);
  const decoded = decodeUtf8Strict(bytes);
  if (decoded === null) {
    throw new BuiltinToolError('unsupported_encoding', 'Unsupported file encoding for edit_file.');
  }
  const text = decoded.text;

  let search = oldString;
  let replacement = newString;
  let matchCount = countOccurrences(text, search);
  if (matchCount === 0 && text.includes('\r\n') && BARE_LF.test(oldString)) {
    search = toCrlf(oldString);
    replacement = toCrlf(newString);
    matchCount = countOccurrences(text, search);
  }
  if (matchCount === 0) {
    throw new BuiltinToolError('old_string_not_found', '`old_string` not found in file.');
  }
  if (matchCount > 1 && !replaceAll) {
    throw new BuiltinToolError(
      'old_string_not_unique',
      '`old_string` matched multiple locations; make it unique or set replace_all=true.',
      { match_count: matchCount },
    );
  }

  const updated = replaceLiteral(text, search, replacement, replaceAll);
  const updatedBytes = encodeUtf8(updated, decoded.hasBom);
  await overwriteHandle(handle, updatedBytes);
  recordBaseline(ctx, relative, {
    sha256: sha256Hex(updatedBytes),
    is_partial: false,
    source: 'edit_file',
  });

  const diff = boundedUnifiedDiff(relative, text, updated);
  return jsonSuccessOutput(
    { ok: true, path: relative, replaced_count: replaceAll ? matchCount : 1 },
    {
      changed_files: [relative],
      diff: diff.diff,
      diff_truncated: diff.truncated,
      additions: diff.additions,
      deletions: diff.deletions,
    },
  );
}
