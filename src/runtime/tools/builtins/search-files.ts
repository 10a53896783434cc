/** `search_files` (docs/spec/runtime.md §10.4): regex search over workspace text files, no external binary. */
import type { ToolContext, ToolOutput } from '../types';
import { hasBinarySuffix, isSupportedFileType, matchesFileType, SUPPORTED_FILE_TYPES } from './file-types';
import { compileGlob } from './glob';
import { resolveListingRoot, type ListingRoot } from './listing-root';
import { isSensitivePath } from './path-classification';
import { searchInWorker, SearchCancelled } from './search-in-worker';
import { MAX_SEARCH_FILE_BYTES, type SearchJobTarget } from './search-job';
import { buildSearchRegex, type MatchOptions } from './search-matcher';
import { renderSearchReport, SEARCH_OUTPUT_MODES, type SearchOutputMode } from './search-report';
import {
  optionalBoolean,
  optionalInteger,
  optionalString,
  requiredString,
  type ToolArgs,
} from './tool-arguments';
import { BuiltinToolError, errorOutput, guardBuiltin } from './tool-error';
import { successOutput } from './tool-output';
import { walkFiles } from './workspace-walk';

const DEFAULT_HEAD_LIMIT = 250;

interface CandidateFilter {
  includeHidden: boolean;
  includeIgnored: boolean;
  includeSensitive: boolean;
  glob: string;
  type: string | undefined;
}

function readOutputMode(args: ToolArgs): SearchOutputMode {
  const mode = optionalString(args, 'output_mode') ?? 'files_with_matches';
  if (!(SEARCH_OUTPUT_MODES as readonly string[]).includes(mode)) {
    throw new BuiltinToolError(
      'invalid_arguments',
      `Invalid \`output_mode\`: ${mode}. Supported: ${[...SEARCH_OUTPUT_MODES].sort().join(', ')}`,
    );
  }
  return mode as SearchOutputMode;
}

function readFileType(args: ToolArgs): string | undefined {
  const raw = optionalString(args, 'type');
  if (raw === undefined) return undefined;
  const type = raw.trim().toLowerCase();
  if (!isSupportedFileType(type)) {
    throw new BuiltinToolError(
      'invalid_arguments',
      `Unsupported file type: ${type}. Supported types: ${SUPPORTED_FILE_TYPES.join(', ')}`,
    );
  }
  return type;
}

function contextLines(args: ToolArgs, name: 'a' | 'b'): number {
  return Math.max(optionalInteger(args, 'c') ?? optionalInteger(args, name) ?? 0, 0);
}

/** Files to read; sensitive files are left out and counted. A file root bypasses glob/hidden/ignored. */
async function collectTargets(
  root: ListingRoot,
  filter: CandidateFilter,
): Promise<{ targets: SearchJobTarget[]; sensitiveOmitted: number }> {
  const targets: SearchJobTarget[] = [];
  let sensitiveOmitted = 0;
  const consider = (target: SearchJobTarget): void => {
    if (filter.type !== undefined && !matchesFileType(target.workspaceRelative, filter.type)) return;
    if (filter.type === undefined && hasBinarySuffix(target.workspaceRelative)) return;
    if (!filter.includeSensitive && isSensitivePath(target.workspaceRelative)) {
      sensitiveOmitted += 1;
      return;
    }
    targets.push(target);
  };

  if (root.stats.isFile()) {
    consider({ absolute: root.absolute, workspaceRelative: root.relative });
  } else if (root.stats.isDirectory()) {
    const matchesGlob = compileGlob(filter.glob);
    for await (const file of walkFiles({
      workspaceRoot: root.workspaceRoot,
      realWorkspaceRoot: root.realWorkspaceRoot,
      root: root.absolute,
      includeHidden: filter.includeHidden,
      pruneIgnoredRoots: root.isWorkspaceRoot && !filter.includeIgnored,
    })) {
      if (matchesGlob(file.fromRoot)) consider(file);
    }
  }
  targets.sort((a, b) =>
    a.workspaceRelative < b.workspaceRelative ? -1 : a.workspaceRelative > b.workspaceRelative ? 1 : 0,
  );
  return { targets, sensitiveOmitted };
}

export function searchFilesHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const pattern = requiredString(args, 'pattern');
    if (pattern.trim() === '') throw new BuiltinToolError('invalid_arguments', 'Search pattern is required');
    const outputMode = readOutputMode(args);
    const type = readFileType(args);
    const literal = optionalBoolean(args, 'literal') ?? false;
    const multiline = optionalBoolean(args, 'multiline') ?? false;
    const regex = buildSearchRegex(pattern, {
      literal,
      multiline,
      caseSensitive: optionalBoolean(args, 'case_sensitive'),
    });
    const offset = Math.max(optionalInteger(args, 'offset') ?? 0, 0);
    const headLimit = Math.max(optionalInteger(args, 'head_limit') ?? DEFAULT_HEAD_LIMIT, 0);
    const showLineNumbers = optionalBoolean(args, 'n') ?? true;
    const rawPath = optionalString(args, 'path') ?? '.';
    const glob = optionalString(args, 'glob') ?? '**/*';
    const matchOptions: Omit<MatchOptions, 'regex'> = {
      multiline,
      contextBefore: contextLines(args, 'b'),
      contextAfter: contextLines(args, 'a'),
      collectRows: outputMode === 'content',
    };

    const root = await resolveListingRoot(ctx.workspace, rawPath);
    const { targets, sensitiveOmitted } = await collectTargets(root, {
      includeHidden: optionalBoolean(args, 'include_hidden') ?? false,
      includeIgnored: optionalBoolean(args, 'include_ignored') ?? false,
      includeSensitive: optionalBoolean(args, 'include_sensitive') ?? false,
      glob,
      type,
    });

    let searched;
    try {
      searched = await searchInWorker(
        {
          source: regex.source,
          flags: regex.flags,
          targets,
          realWorkspaceRoot: root.realWorkspaceRoot,
          options: matchOptions,
          maxFileBytes: MAX_SEARCH_FILE_BYTES,
        },
        { signal: ctx.signal },
      );
    } catch (error) {
      if (error instanceof SearchCancelled) return errorOutput('tool_execution_cancelled', error.message);
      throw error;
    }
    const { findings, filesSearched, filesCut } = searched;

    const report = renderSearchReport(findings, { pattern, outputMode, offset, headLimit, showLineNumbers });
    return successOutput(report.text, {
      output_mode: outputMode,
      pattern,
      path: root.relative,
      glob,
      type: type ?? null,
      literal,
      offset,
      head_limit: headLimit,
      summary: {
        files_searched: filesSearched,
        files_with_matches: findings.fileCounts.length,
        total_matches: findings.totalMatches,
      },
      total_result_items: report.totalItems,
      returned_count: report.returnedCount,
      head_limited: report.headLimited,
      content_truncated: report.contentTruncated,
      truncated: report.headLimited || report.contentTruncated,
      ...(sensitiveOmitted > 0 ? { sensitive_files_omitted: sensitiveOmitted } : {}),
      ...(filesCut.length > 0
        ? { files_cut_at_bytes: MAX_SEARCH_FILE_BYTES, files_cut: filesCut.slice(0, 100) }
        : {}),
    });
  });
}
