/**
 * Bounding of captured command output (docs/spec/runtime.md §10.6). Output is read from the capture file in
 * chunks so that a command printing gigabytes never becomes one string; invalid UTF-8 is replaced
 * with U+FFFD, and byte counts and the artifact refer to that decoded text.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';

import type { ToolArtifact } from '../types';
import { ARTIFACTS_DIRECTORY, pruneOldArtifacts } from './artifact-pruning';
import { codePointLength, firstCodePoints, lastCodePoints } from './text-codec';
import { makeDirectory } from '../../make-directory';
import { BuiltinToolError } from './tool-error';
import { resolveWorkspacePath } from './workspace-path';

export const OUTPUT_LIMIT_CHARS = 12_000;
export const PREVIEW_HEAD_CHARS = 6_000;
export const PREVIEW_TAIL_CHARS = 5_953;
export const PREVIEW_MARKER = '\n... output omitted; full text in artifact ...\n';

export interface CapturedOutput {
  /** The whole text, or head + marker + tail when `truncated`. */
  text: string;
  truncated: boolean;
  /** UTF-8 bytes of the whole text. */
  originalBytes: number;
  /** UTF-8 bytes of `text`. */
  visibleBytes: number;
}

async function* decodedChunks(capturePath: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const chunk of createReadStream(capturePath)) {
    const text = decoder.decode(chunk as Buffer, { stream: true });
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

export async function readCapturedOutput(capturePath: string): Promise<CapturedOutput> {
  let head = '';
  let headChars = 0;
  let tail = '';
  let totalChars = 0;
  let originalBytes = 0;
  for await (const chunk of decodedChunks(capturePath)) {
    const chars = codePointLength(chunk);
    totalChars += chars;
    originalBytes += Buffer.byteLength(chunk, 'utf8');
    if (headChars < OUTPUT_LIMIT_CHARS) {
      const taken = firstCodePoints(chunk, OUTPUT_LIMIT_CHARS - headChars);
      head += taken;
      headChars += codePointLength(taken);
    }
    tail += chunk;
    // Trim only once the buffer is well past the tail size, keeping this linear in the output size.
    if (tail.length > 8 * PREVIEW_TAIL_CHARS) tail = lastCodePoints(tail, PREVIEW_TAIL_CHARS);
  }
  if (totalChars <= OUTPUT_LIMIT_CHARS) {
    return { text: head, truncated: false, originalBytes, visibleBytes: originalBytes };
  }
  const text =
    firstCodePoints(head, PREVIEW_HEAD_CHARS) + PREVIEW_MARKER + lastCodePoints(tail, PREVIEW_TAIL_CHARS);
  return { text, truncated: true, originalBytes, visibleBytes: Buffer.byteLength(text, 'utf8') };
}

/** A path segment made of `[A-Za-z0-9._-]` (other runs collapse to `-`), starting alphanumeric. */
export function artifactSegment(value: string, fallback: string): string {
  const segment = value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .slice(0, 64)
    .replace(/^[^A-Za-z0-9]+/, '');
  return segment === '' ? fallback : segment;
}

export function artifactRelativePath(runId: string, toolCallId: string): string {
  const run = artifactSegment(runId, 'run');
  const call = artifactSegment(toolCallId, 'call');
  return `${ARTIFACTS_DIRECTORY}/${run}/${call}-${randomBytes(16).toString('hex')}.txt`;
}

/** Writes the full decoded text to a fresh artifact file in the workspace. */
export async function persistOutputArtifact(
  workspace: string,
  runId: string,
  toolCallId: string,
  capturePath: string,
): Promise<ToolArtifact> {
  const relative = artifactRelativePath(runId, toolCallId);
  await pruneOldArtifacts(workspace);
  try {
    const target = await resolveWorkspacePath(workspace, relative);
    await makeDirectory(path.dirname(target.absolute));
    const handle = await fs.open(target.absolute, 'wx');
    const hash = createHash('sha256');
    let sizeBytes = 0;
    try {
      for await (const chunk of decodedChunks(capturePath)) {
        const bytes = Buffer.from(chunk, 'utf8');
        hash.update(bytes);
        sizeBytes += bytes.length;
        for (let written = 0; written < bytes.length;) {
          written += (await handle.write(bytes, written)).bytesWritten;
        }
      }
    } finally {
      await handle.close();
    }
    return {
      path: relative,
      media_type: 'text/plain',
      encoding: 'utf-8',
      size_bytes: sizeBytes,
      sha256: hash.digest('hex'),
    };
  } catch (error) {
    throw new BuiltinToolError(
      'artifact_persist_failed',
      `Failed to persist output artifact: ${(error as Error).message}`,
    );
  }
}
