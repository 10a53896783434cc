/** `find_files` (docs/spec/runtime.md §10.4): bounded, filtered, sorted and paginated file listing. */
import { promises as fs } from 'node:fs';

import type { ToolContext, ToolOutput } from '../types';
import { compileGlob } from './glob';
import { resolveListingRoot } from './listing-root';
import { isSensitivePath } from './path-classification';
import { clamp, optionalBoolean, optionalInteger, optionalString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { jsonSuccessOutput } from './tool-output';
import { presentIgnoredRoots, walkFiles } from './workspace-walk';

const DEFAULT_MAX_RESULTS = 100;
const HARD_MAX_RESULTS = 5_000;
const DEFAULT_SCAN_LIMIT = 50_000;
/** Concurrent stat calls while sorting by modification time. */
const STAT_BATCH = 64;
const SCAN_LIMIT_MESSAGE =
  'Listing stopped early due to scan limit. Narrow `path`/`glob` or increase `scan_limit` for more complete results.';
const IGNORED_ROOTS_MESSAGE =
  'Common dependency/cache directories are summarized by default. List those directories explicitly when needed.';

export type FindFilesSort = 'modified_desc' | 'path_asc';

interface Candidate {
  path: string;
  absolute: string;
  mtimeMs: number;
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function readSort(args: ToolArgs): FindFilesSort {
  const sort = optionalString(args, 'sort') ?? 'modified_desc';
  if (sort !== 'modified_desc' && sort !== 'path_asc') {
    throw new BuiltinToolError('invalid_arguments', '`sort` must be modified_desc or path_asc');
  }
  return sort;
}

async function sortCandidates(candidates: Candidate[], sort: FindFilesSort): Promise<void> {
  if (sort === 'modified_desc') {
    for (let start = 0; start < candidates.length; start += STAT_BATCH) {
      await Promise.all(
        candidates.slice(start, start + STAT_BATCH).map(async (candidate) => {
          candidate.mtimeMs = await fs.stat(candidate.absolute).then(
            (stats) => stats.mtimeMs,
            () => 0,
          );
        }),
      );
    }
    candidates.sort((a, b) => b.mtimeMs - a.mtimeMs || byPath(a.path, b.path));
  } else {
    candidates.sort((a, b) => byPath(a.path, b.path));
  }
}

export function findFilesHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    if (args.pattern !== undefined) {
      throw new BuiltinToolError(
        'invalid_arguments',
        '`glob` is required for file patterns; `pattern` is not supported',
      );
    }
    const rawPath = optionalString(args, 'path') ?? '.';
    const matchesGlob = compileGlob(optionalString(args, 'glob') ?? '**/*');
    const includeHidden = optionalBoolean(args, 'include_hidden') ?? false;
    const includeIgnored = optionalBoolean(args, 'include_ignored') ?? false;
    const includeSensitive = optionalBoolean(args, 'include_sensitive') ?? false;
    const sort = readSort(args);
    const offset = Math.max(optionalInteger(args, 'offset') ?? 0, 0);
    const maxResults = clamp(
      optionalInteger(args, 'max_results') ?? DEFAULT_MAX_RESULTS,
      1,
      HARD_MAX_RESULTS,
    );
    const scanLimit = Math.max(optionalInteger(args, 'scan_limit') ?? DEFAULT_SCAN_LIMIT, maxResults);

    const root = await resolveListingRoot(ctx.workspace, rawPath);
    if (!root.stats.isDirectory())
      throw new BuiltinToolError('not_a_directory', `not a directory: ${rawPath}`);
    const summarizeIgnored = root.isWorkspaceRoot && !includeIgnored;

    const candidates: Candidate[] = [];
    let scanned = 0;
    let scanLimited = false;
    let sensitiveOmitted = 0;
    for await (const file of walkFiles({
      workspaceRoot: root.workspaceRoot,
      realWorkspaceRoot: root.realWorkspaceRoot,
      root: root.absolute,
      includeHidden,
      pruneIgnoredRoots: summarizeIgnored,
    })) {
      if (scanned === scanLimit) {
        scanLimited = true;
        break;
      }
      scanned += 1;
      if (!matchesGlob(file.fromRoot)) continue;
      if (!includeSensitive && isSensitivePath(file.workspaceRelative)) {
        sensitiveOmitted += 1;
        continue;
      }
      candidates.push({ path: file.workspaceRelative, absolute: file.absolute, mtimeMs: 0 });
    }

    await sortCandidates(candidates, sort);
    const files = candidates.slice(offset, offset + maxResults).map((candidate) => candidate.path);
    const count = candidates.length;
    const remaining = count - offset - files.length;
    const ignoredRoots = summarizeIgnored ? await presentIgnoredRoots(root.workspaceRoot) : [];
    const messages = [
      ...(scanLimited ? [SCAN_LIMIT_MESSAGE] : []),
      ...(ignoredRoots.length > 0 ? [IGNORED_ROOTS_MESSAGE] : []),
    ];

    return jsonSuccessOutput({
      files,
      count,
      returned_count: files.length,
      truncated: remaining > 0 || scanLimited,
      max_results: maxResults,
      offset,
      sort,
      ...(remaining > 0 ? { remaining_count: remaining } : {}),
      ...(scanLimited ? { count_is_estimate: true, scan_limit: scanLimit } : {}),
      ...(ignoredRoots.length > 0 ? { ignored_roots: ignoredRoots.map((name) => ({ path: name })) } : {}),
      ...(messages.length > 0 ? { message: messages.join(' ') } : {}),
      ...(sensitiveOmitted > 0 ? { sensitive_files_omitted: sensitiveOmitted } : {}),
    });
  });
}
