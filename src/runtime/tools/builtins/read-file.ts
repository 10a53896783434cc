/** `read_file` (docs/spec/runtime.md §10.5): bounded UTF-8 reads with continuation cursors. */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

import type { ReadCursor, ToolContext, ToolOutput } from '../types';
import { recordBaseline } from './baselines';
import { openConfinedRegularFile } from './confined-open';
import { PageReader, type ReadPage, type ReadSelection } from './read-page';
import { optionalBoolean, optionalInteger, requiredString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { successOutput } from './tool-output';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path';

const SHA256_HEX = /^[0-9a-f]{64}$/;

function parseCursor(value: unknown): ReadCursor | undefined {
  if (value === undefined || value === null) return undefined;
  const candidate = value as Partial<Record<keyof ReadCursor, unknown>>;
  const valid =
    typeof value === 'object' &&
    !Array.isArray(value) &&
    candidate.kind === 'read_file' &&
    typeof candidate.path === 'string' &&
    candidate.path !== '' &&
    typeof candidate.offset_chars === 'number' &&
    Number.isInteger(candidate.offset_chars) &&
    candidate.offset_chars >= 0 &&
    typeof candidate.sha256 === 'string' &&
    SHA256_HEX.test(candidate.sha256);
  if (!valid) throw new BuiltinToolError('invalid_arguments', '`cursor` is invalid');
  return value as ReadCursor;
}

export function readFileHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const rawPath = requiredString(args, 'path');
    const target = await resolveWorkspacePath(ctx.workspace, rawPath);
    // Checked and read through one descriptor: a symlink swapped in meanwhile cannot redirect the read.
    const handle = await openConfinedRegularFile(ctx.workspace, target.absolute, rawPath);
    try {
      return await readOpenFile(ctx, args, target, handle);
    } finally {
      await handle.close();
    }
  });
}

/** Bytes read per step: a file of any size is hashed, decoded and paged without being held whole. */
const READ_CHUNK_BYTES = 256 * 1024;

function unsupportedEncoding(): BuiltinToolError {
  return new BuiltinToolError('unsupported_encoding', 'Unsupported file encoding for read_file.');
}

/**
 * One pass over the file: sha256 of its bytes, strict UTF-8 decoding (a leading BOM skipped) and the
 * page. Awaiting each chunk keeps the event loop free while a huge file is read.
 */
async function streamPage(
  handle: FileHandle,
  selection: ReadSelection,
): Promise<{ page: ReadPage; sha256: string; length: number }> {
  const reader = new PageReader(selection);
  const hash = createHash('sha256');
  // fatal: invalid UTF-8 is an error; the default ignoreBOM: false drops a leading BOM.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes?: Uint8Array): string => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw unsupportedEncoding();
    }
  };
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  for (let position = 0; ;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const bytes = buffer.subarray(0, bytesRead);
    hash.update(bytes);
    reader.push(decode(bytes));
  }
  reader.push(decode());
  return { page: reader.finish(), sha256: hash.digest('hex'), length: reader.length };
}

async function readOpenFile(
  ctx: ToolContext,
  args: ToolArgs,
  target: WorkspacePath,
  handle: FileHandle,
): Promise<ToolOutput> {
  const cursor = parseCursor(args.cursor);
  const startLine = optionalInteger(args, 'start_line');
  const endLine = optionalInteger(args, 'end_line');
  const showLineNumbers = optionalBoolean(args, 'show_line_numbers') ?? false;
  if (cursor !== undefined && (startLine !== undefined || endLine !== undefined)) {
    throw new BuiltinToolError(
      'invalid_arguments',
      '`cursor` is incompatible with `start_line` and `end_line`',
    );
  }
  if (cursor !== undefined) {
    const cursorTarget = await resolveWorkspacePath(ctx.workspace, cursor.path);
    if (cursorTarget.relative !== target.relative) {
      throw new BuiltinToolError('cursor_path_mismatch', 'cursor path does not match requested path');
    }
  }

  const first = Math.max(startLine ?? 1, 1);
  const selection: ReadSelection =
    cursor !== undefined
      ? { kind: 'offset', offset: cursor.offset_chars, showLineNumbers }
      : {
          kind: 'lines',
          startLine: first,
          endLine: endLine === undefined ? undefined : Math.max(endLine, first),
          showLineNumbers,
        };
  const { page, sha256, length } = await streamPage(handle, selection);
  if (cursor !== undefined && cursor.sha256 !== sha256) {
    throw new BuiltinToolError('stale_cursor', 'source changed after cursor was issued');
  }
  if (cursor !== undefined && cursor.offset_chars > length) {
    throw new BuiltinToolError('cursor_offset_invalid', 'cursor offset is outside the source');
  }

  recordBaseline(ctx, target.relative, {
    sha256,
    is_partial: cursor !== undefined || first !== 1 || endLine !== undefined || page.truncated,
    source: 'read_file',
  });

  if (!page.truncated) return successOutput(page.content);
  return successOutput(
    page.content,
    {},
    {
      truncated: true,
      truncation_reason: 'read_limit',
      cursor: { kind: 'read_file', path: target.relative, offset_chars: page.nextOffset, sha256 },
      original_bytes: page.originalBytes,
      visible_bytes: Buffer.byteLength(page.content, 'utf8'),
    },
  );
}
