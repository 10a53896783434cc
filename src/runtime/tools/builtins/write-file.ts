/** `write_file` (runtime.md §10.5): overwrite (baseline-guarded) or append, creating parents. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import type { ToolContext, ToolOutput } from '../types';
import { baselineProblem, getBaseline, recordBaseline } from './baselines';
import { codePointLength, sha256Hex } from './text-codec';
import { optionalBoolean, requiredString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { jsonSuccessOutput } from './tool-output';
import { resolveWorkspacePath } from './workspace-path';

const OVERWRITE_MESSAGES = {
  file_not_read: 'Read the full file with read_file before overwriting.',
  file_changed_since_read: 'File changed since it was last read. Re-read it before overwriting.',
} as const;

async function existingKind(absolute: string): Promise<'file' | 'other' | 'none'> {
  try {
    return (await fs.stat(absolute)).isFile() ? 'file' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'none';
    throw error;
  }
}

export function writeFileHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const rawPath = requiredString(args, 'path');
    const content = requiredString(args, 'content');
    const append = optionalBoolean(args, 'append') ?? false;
    const leadingNewline = append && (optionalBoolean(args, 'leading_newline') ?? false);
    const trailingNewline = append && (optionalBoolean(args, 'trailing_newline') ?? false);
    const target = await resolveWorkspacePath(ctx.workspace, rawPath);

    const kind = await existingKind(target.absolute);
    if (kind === 'other') {
      throw new BuiltinToolError('workspace_backend_error', `path is not a file: ${rawPath}`);
    }
    // Whether the run knows the whole file after this write (decides the new baseline's is_partial).
    let knowsWholeFile = kind === 'none' || !append;
    if (kind === 'file') {
      const current = await fs.readFile(target.absolute);
      const problem = baselineProblem(getBaseline(ctx, target.relative), sha256Hex(current), false);
      if (problem !== null && !append) throw new BuiltinToolError(problem, OVERWRITE_MESSAGES[problem]);
      if (append) knowsWholeFile = problem === null;
    }

    const body = append ? `${leadingNewline ? '\n' : ''}${content}${trailingNewline ? '\n' : ''}` : content;
    const bytes = Buffer.from(body, 'utf8');
    await fs.mkdir(path.dirname(target.absolute), { recursive: true });
    if (append) await fs.appendFile(target.absolute, bytes);
    else await fs.writeFile(target.absolute, bytes);

    const written = await fs.readFile(target.absolute);
    recordBaseline(ctx, target.relative, {
      sha256: sha256Hex(written),
      is_partial: !knowsWholeFile,
      source: 'write_file',
    });
    return jsonSuccessOutput(
      {
        ok: true,
        path: target.relative,
        append,
        leading_newline: leadingNewline,
        trailing_newline: trailingNewline,
        written_bytes: bytes.length,
        written_chars: codePointLength(body),
      },
      { changed_files: [target.relative] },
    );
  });
}
