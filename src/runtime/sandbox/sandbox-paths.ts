/**
 * Which paths a sandboxed command may write and which it may not even read (docs/spec/sandbox.md §1,
 * §2), resolved through symlinks before anything is mounted (§3): a mount on a link's target is what
 * covers every way to the file, the link in the workspace included.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** Directly below each writable root, these stay read-only (§1: no `.git/hooks`, no `.vv-agent` tampering). */
export const PROTECTED_DIRECTORY_NAMES = ['.git', '.vv-agent'] as const;

/** §2: the credential folders and files below the user's home. */
export const HOME_CREDENTIAL_PATHS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.git-credentials',
] as const;

/**
 * A directory hidden as a whole, unless a writable root lies inside it: then only `files` are hidden
 * (the store directory holding the workspace, docs/spec-interpretations.md "Sandbox").
 */
export interface HiddenDirectory {
  directory: string;
  files: readonly string[];
}

/** What the server hides (§2), before resolution. */
export interface HiddenPathList {
  /** Hidden always; a writable root inside one is refused. */
  paths: readonly string[];
  directories: readonly HiddenDirectory[];
}

export type HiddenKind = 'directory' | 'file';

export interface HiddenMount {
  path: string;
  kind: HiddenKind;
}

export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of an existing path; null when it does not exist. */
export function realPathOrNull(path: string): string | null {
  try {
    return realpathSync.native(resolve(path));
  } catch {
    return null;
  }
}

function kindOf(path: string): HiddenKind | null {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return null;
  }
}

function hiddenMount(path: string): HiddenMount | null {
  const real = realPathOrNull(path);
  const kind = real === null ? null : kindOf(real);
  return real === null || kind === null ? null : { path: real, kind };
}

/** Nothing to hide where nothing exists: a missing path is skipped (the root stays read-only anyway). */
export function hiddenMounts(list: HiddenPathList, writableRoots: readonly string[]): HiddenMount[] {
  const mounts: HiddenMount[] = [];
  for (const path of list.paths) {
    const mount = hiddenMount(path);
    if (mount) mounts.push(mount);
  }
  for (const { directory, files } of list.directories) {
    const mount = hiddenMount(directory);
    if (mount === null) continue;
    const holdsRoot = writableRoots.some((root) => isWithin(root, mount.path));
    if (!holdsRoot) mounts.push(mount);
    else for (const file of files) mounts.push(...[hiddenMount(file)].filter((m) => m !== null));
  }
  return mounts;
}

/** The hidden path a (resolved) root lies in, or null. */
export function hidingPathOf(root: string, list: HiddenPathList): string | null {
  for (const path of list.paths) {
    const real = realPathOrNull(path);
    if (real !== null && isWithin(root, real)) return path;
  }
  return null;
}

/** `.git` / `.vv-agent` below a root, resolved (a `.git` file of a worktree or a link is covered too). */
export function protectedPaths(root: string): string[] {
  const paths: string[] = [];
  for (const name of PROTECTED_DIRECTORY_NAMES) {
    const real = realPathOrNull(join(root, name));
    if (real !== null) paths.push(real);
  }
  return paths;
}

/** §2: the default hidden list below `home`, plus the server's own files and folders. */
export function homeCredentialList(home: string): string[] {
  return HOME_CREDENTIAL_PATHS.map((entry) => join(home, entry));
}
