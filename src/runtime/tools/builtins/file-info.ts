/** `file_info` (docs/spec/runtime.md §10.4): path metadata without reading contents. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import type { ToolContext, ToolOutput } from '../types';
import { fileSuffix } from './text-codec';
import { requiredString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { jsonSuccessOutput } from './tool-output';
import { resolveWorkspacePath } from './workspace-path';

async function statOrNull(absolute: string): Promise<import('node:fs').Stats | null> {
  try {
    return await fs.stat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

export function fileInfoHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const rawPath = requiredString(args, 'path');
    const target = await resolveWorkspacePath(ctx.workspace, rawPath);
    const stats = await statOrNull(target.absolute);
    if (stats === null) throw new BuiltinToolError('path_not_found', `path not found: ${rawPath}`);
    const isFile = stats.isFile();
    return jsonSuccessOutput({
      path: target.relative,
      exists: true,
      is_file: isFile,
      is_dir: stats.isDirectory(),
      size: stats.size,
      modified_at: stats.mtime.toISOString(),
      ...(isFile ? { suffix: fileSuffix(path.basename(target.absolute)) } : {}),
    });
  });
}
