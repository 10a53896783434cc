/**
 * Opening workspace files so that the confinement check and the use are the same object (issue 12,
 * symlink-swap TOCTOU): the file is opened first, then the real path of the *descriptor* (Linux:
 * `/proc/self/fd/<n>`) must lie inside the real workspace root; only then is it read or written. A
 * path flipped to a symlink between `resolveWorkspacePath` and the open is caught here. New files
 * are created with `O_EXCL`, which never follows a symlink in the last component; if a swapped
 * parent directory still put the new file outside, it is removed again before anything is written.
 * Where `/proc/self/fd` is unavailable, the path-based check of §10.2 is all there is.
 */
import { constants, promises as fs, readlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

import { BuiltinToolError } from './tool-error';
import { escapeError, isSameOrInside } from './workspace-path';

/** Real path of an open descriptor, or null where the platform cannot tell. */
export function descriptorRealPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** True when the open descriptor is inside the workspace (or the platform cannot tell). */
export function isDescriptorConfined(fd: number, realWorkspaceRoot: string): boolean {
  const real = descriptorRealPath(fd);
  return real === null || isSameOrInside(realWorkspaceRoot, real);
}

async function realRoot(workspace: string): Promise<string> {
  return fs.realpath(path.resolve(workspace));
}

async function verified(handle: FileHandle, workspace: string, rawPath: string): Promise<FileHandle> {
  if (isDescriptorConfined(handle.fd, await realRoot(workspace))) return handle;
  await handle.close();
  throw escapeError(rawPath);
}

/** Opens an existing path for reading (or `flags`), verified to be inside the workspace. */
export async function openConfined(
  workspace: string,
  absolute: string,
  rawPath: string,
  flags: number = constants.O_RDONLY,
): Promise<FileHandle> {
  return verified(await fs.open(absolute, flags), workspace, rawPath);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export interface WritableFile {
  handle: FileHandle;
  /** The file did not exist and was created by this open. */
  created: boolean;
}

/**
 * Opens `absolute` read-write, creating it when missing, without ever touching a file outside the
 * workspace: an existing file is verified before any byte is written; a new one is created with
 * `O_EXCL` and removed again when it landed outside.
 */
export async function openConfinedForWrite(
  workspace: string,
  absolute: string,
  rawPath: string,
): Promise<WritableFile> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return { handle: await openConfined(workspace, absolute, rawPath, constants.O_RDWR), created: false };
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    let handle: FileHandle;
    try {
      handle = await fs.open(absolute, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL);
    } catch (error) {
      // EEXIST: something appeared (or a symlink sits) there meanwhile; look again.
      if (errorCode(error) === 'EEXIST') continue;
      throw error;
    }
    const real = descriptorRealPath(handle.fd);
    if (real !== null && !isSameOrInside(await realRoot(workspace), real)) {
      await handle.close();
      await fs.unlink(real).catch(() => undefined);
      throw escapeError(rawPath);
    }
    return { handle, created: true };
  }
  // A dangling symlink: existing for O_EXCL, missing for a plain open. Where it points was checked
  // by resolveWorkspacePath; a link that keeps changing under us is refused.
  throw escapeError(rawPath);
}

/** Replaces the whole content of an open file. */
export async function overwriteHandle(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  await handle.truncate(0);
  await writeAllAt(handle, bytes, 0);
}

export async function writeAllAt(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += (await handle.write(bytes, written, bytes.length - written, position + written)).bytesWritten;
  }
}

/**
 * Opens an existing regular file inside the workspace (`flags`: read-only by default); a missing
 * path or anything but a regular file → `file_not_found`.
 */
export async function openConfinedRegularFile(
  workspace: string,
  absolute: string,
  rawPath: string,
  flags: number = constants.O_RDONLY,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO someone put there must not hang the call.
    handle = await openConfined(workspace, absolute, rawPath, flags | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') throw fileNotFound(rawPath);
    throw error;
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw fileNotFound(rawPath);
  }
  return handle;
}

function fileNotFound(rawPath: string): BuiltinToolError {
  return new BuiltinToolError('file_not_found', `file not found: ${rawPath}`);
}
