/** Resolution of the root directory of a listing or search, shared by `find_files` and `search_files`. */
import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { BuiltinToolError } from './tool-error';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path';

export interface ListingRoot extends WorkspacePath {
  stats: Stats;
  workspaceRoot: string;
  realWorkspaceRoot: string;
  /** The root is the workspace root itself (ignored roots are summarized only then). */
  isWorkspaceRoot: boolean;
}

export async function resolveListingRoot(workspace: string, rawPath: string): Promise<ListingRoot> {
  const target = await resolveWorkspacePath(workspace, rawPath);
  const stats = await fs.stat(target.absolute).catch(() => null);
  if (stats === null) throw new BuiltinToolError('path_not_found', `path not found: ${rawPath}`);
  const workspaceRoot = path.resolve(workspace);
  return {
    ...target,
    stats,
    workspaceRoot,
    realWorkspaceRoot: await fs.realpath(workspaceRoot),
    isWorkspaceRoot: target.relative === '.',
  };
}
