/** Workspace confinement of path arguments (docs/spec/runtime.md §10.2). */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { BuiltinToolError } from './tool-error';

export interface WorkspacePath {
  /** Lexically normalized absolute path (symlinks not resolved). */
  absolute: string;
  /** Workspace-relative with `/` separators; `.` for the root itself. */
  relative: string;
}

/** Symlink hops followed while resolving a dangling link chain before giving up (as the kernel's ELOOP). */
const MAX_LINK_HOPS = 40;

export function isSameOrInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

export function toWorkspaceRelative(workspaceRoot: string, absolute: string): string {
  const relative = path.relative(workspaceRoot, absolute);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

export function escapeError(rawPath: string): BuiltinToolError {
  return new BuiltinToolError('path_escapes_workspace', `Path escapes workspace: ${rawPath}`);
}

/**
 * Steps 1–2: join relative paths to the root, normalize `.`/`..` lexically (no `~` expansion) and
 * require the result to be the root or below it. Returns null when it escapes.
 */
export function lexicalWorkspacePath(workspaceRoot: string, rawPath: string): WorkspacePath | null {
  const root = path.resolve(workspaceRoot);
  const absolute = path.isAbsolute(rawPath) ? path.normalize(rawPath) : path.resolve(root, rawPath);
  const trimmed = absolute.length > 1 && absolute.endsWith(path.sep) ? absolute.slice(0, -1) : absolute;
  if (!isSameOrInside(root, trimmed)) return null;
  return { absolute: trimmed, relative: toWorkspaceRelative(root, trimmed) };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function lstatOrNull(target: string): Promise<import('node:fs').Stats | null> {
  try {
    return await fs.lstat(target);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Real path of `target`, or of its nearest existing ancestor joined with the missing rest. A dangling
 * symlink on the way is followed to where it points, because creating the file would land there.
 */
export async function realPathOfNearestExisting(target: string, hops = 0): Promise<string> {
  try {
    return await fs.realpath(target);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = path.dirname(target);
  if (parent === target) return target;
  const realParent = await realPathOfNearestExisting(parent, hops);
  const stats = await lstatOrNull(target);
  if (stats?.isSymbolicLink()) {
    if (hops >= MAX_LINK_HOPS) {
      throw Object.assign(new Error(`Too many levels of symbolic links: ${target}`), { code: 'ELOOP' });
    }
    const linkTarget = await fs.readlink(target).catch((error: unknown) => {
      // Replaced since the lstat (a concurrent swap): no longer a link, or gone again.
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EINVAL') return null;
      throw error;
    });
    if (linkTarget !== null) return realPathOfNearestExisting(path.resolve(realParent, linkTarget), hops + 1);
  }
  return path.join(realParent, path.basename(target));
}

/** Full §10.2 check: lexical containment, then real-path containment (symlink escapes). */
export async function resolveWorkspacePath(workspaceRoot: string, rawPath: string): Promise<WorkspacePath> {
  const lexical = lexicalWorkspacePath(workspaceRoot, rawPath);
  if (lexical === null) throw escapeError(rawPath);
  const realRoot = await fs.realpath(path.resolve(workspaceRoot));
  const realTarget = await realPathOfNearestExisting(lexical.absolute);
  if (!isSameOrInside(realRoot, realTarget)) throw escapeError(rawPath);
  return lexical;
}
