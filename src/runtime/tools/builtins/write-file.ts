/** `write_file` (docs/spec/runtime.md §10.5): overwrite (baseline-guarded) or append, creating parents. */
import * as path from 'node:path';

import type { ToolContext, ToolOutput } from '../types';
import { makeDirectory } from '../../make-directory';
import { baselineProblem, getBaseline, recordBaseline } from './baselines';
import { openConfinedForWrite, overwriteHandle, writeAllAt, type WritableFile } from './confined-open';
import { codePointLength, sha256Hex } from './text-codec';
import { optionalBoolean, requiredString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { jsonSuccessOutput } from './tool-output';
import { resolveWorkspacePath } from './workspace-path';
import { assertSandboxAllowsWrite } from './sandbox-write-check';

const OVERWRITE_MESSAGES = {
  file_not_read: 'Read the full file with read_file before overwriting.',
  file_changed_since_read: 'File changed since it was last read. Re-read it before overwriting.',
} as const;

/** The target opened read-write (created when missing); anything but a regular file is refused. */
async function openForWrite(workspace: string, absolute: string, rawPath: string): Promise<WritableFile> {
  let opened: WritableFile;
  try {
    opened = await openConfinedForWrite(workspace, absolute, rawPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw notAFile(rawPath);
    throw error;
  }
  if (!(await opened.handle.stat()).isFile()) {
    await opened.handle.close();
    throw notAFile(rawPath);
  }
  return opened;
}

function notAFile(rawPath: string): BuiltinToolError {
  return new BuiltinToolError('workspace_backend_error', `path is not a file: ${rawPath}`);
}

export function writeFileHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const rawPath = requiredString(args, 'path');
    const content = requiredString(args, 'content');
    const append = optionalBoolean(args, 'append') ?? false;
    const leadingNewline = append && (optionalBoolean(args, 'leading_newline') ?? false);
    const trailingNewline = append && (optionalBoolean(args, 'trailing_newline') ?? false);
    const target = await resolveWorkspacePath(ctx.workspace, rawPath);
    assertSandboxAllowsWrite(ctx, target.absolute);

    const body = append ? `${leadingNewline ? '\n' : ''}${content}${trailingNewline ? '\n' : ''}` : content;
    const bytes = Buffer.from(body, 'utf8');
    await makeDirectory(path.dirname(target.absolute));
    const { handle, created } = await openForWrite(ctx.workspace, target.absolute, rawPath);
    let writtenSha256: string;
    // Whether the run knows the whole file after this write (decides the new baseline's is_partial).
    let knowsWholeFile = true;
    try {
      // The baseline check and the write go through one descriptor, verified inside the workspace.
      const current = created ? Buffer.alloc(0) : await handle.readFile();
      if (!created) {
        const problem = baselineProblem(getBaseline(ctx, target.relative), sha256Hex(current), false);
        if (problem !== null && !append) throw new BuiltinToolError(problem, OVERWRITE_MESSAGES[problem]);
        if (append) knowsWholeFile = problem === null;
      }
      if (append) {
        await writeAllAt(handle, bytes, current.length);
        writtenSha256 = sha256Hex(Buffer.concat([current, bytes]));
      } else {
        await overwriteHandle(handle, bytes);
        writtenSha256 = sha256Hex(bytes);
      }
    } finally {
      await handle.close();
    }
    recordBaseline(ctx, target.relative, {
      sha256: writtenSha256,
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
