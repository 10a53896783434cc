/**
 * Depth-first walk of the regular files below a directory, shared by `find_files` and `search_files`.
 * Hidden entries (relative to the walk root) and, for a walk of the workspace root, the ignored roots
 * are pruned. Symlinked directories are never entered (no cycles, no escapes); a symlinked file is
 * yielded only when its real path lies inside the workspace.
 */
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { isIgnoredRootName } from './path-classification';
import { isSameOrInside, toWorkspaceRelative } from './workspace-path';

export interface WalkedFile {
  absolute: string;
  /** Relative to the walk root, `/` separators. */
  fromRoot: string;
  /** Relative to the workspace root, `/` separators. */
  workspaceRelative: string;
}

export interface WalkOptions {
  workspaceRoot: string;
  /** Real path of the workspace root (symlink targets must stay inside). */
  realWorkspaceRoot: string;
  /** Absolute directory to walk. */
  root: string;
  includeHidden: boolean;
  /** Prune ignored roots among the root's direct children (only when walking the workspace root). */
  pruneIgnoredRoots: boolean;
}

async function readDirSorted(directory: string): Promise<Dirent[]> {
  try {
    const entries = await fs.readdir(directory, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // An unreadable directory is skipped like the rest of its subtree would be.
    return [];
  }
}

async function isConfinedRegularFile(absolute: string, realWorkspaceRoot: string): Promise<boolean> {
  try {
    const stats = await fs.stat(absolute);
    if (!stats.isFile()) return false;
    return isSameOrInside(realWorkspaceRoot, await fs.realpath(absolute));
  } catch {
    return false;
  }
}

export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  async function* visit(directory: string, fromRoot: string): AsyncGenerator<WalkedFile> {
    const entries = await readDirSorted(directory);
    const subdirectories: Array<[string, string]> = [];
    for (const entry of entries) {
      if (!options.includeHidden && entry.name.startsWith('.')) continue;
      const absolute = path.join(directory, entry.name);
      const childFromRoot = fromRoot === '' ? entry.name : `${fromRoot}/${entry.name}`;
      if (entry.isDirectory()) {
        if (fromRoot === '' && options.pruneIgnoredRoots && isIgnoredRootName(entry.name)) continue;
        subdirectories.push([absolute, childFromRoot]);
        continue;
      }
      const regular =
        entry.isFile() ||
        (entry.isSymbolicLink() && (await isConfinedRegularFile(absolute, options.realWorkspaceRoot)));
      if (!regular) continue;
      yield {
        absolute,
        fromRoot: childFromRoot,
        workspaceRelative: toWorkspaceRelative(options.workspaceRoot, absolute),
      };
    }
    for (const [absolute, childFromRoot] of subdirectories) {
      yield* visit(absolute, childFromRoot);
    }
  }
  yield* visit(options.root, '');
}

/** Names of the ignored-root directories present directly under the workspace root, sorted. */
export async function presentIgnoredRoots(workspaceRoot: string): Promise<string[]> {
  const entries = await readDirSorted(workspaceRoot);
  return entries.filter((entry) => entry.isDirectory() && isIgnoredRootName(entry.name)).map((e) => e.name);
}
