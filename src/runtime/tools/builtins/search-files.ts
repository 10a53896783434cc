/** `search_files` (runtime.md §10.4): regex search over workspace text files, no external binary. */
import { promises as fs } from 'node:fs';

import type { ToolContext, ToolOutput } from '../types';
import {
  hasBinarySuffix,
  isSupportedFileType,
  looksBinary,
  matchesFileType,
  SUPPORTED_FILE_TYPES,
} from './file-types';
import { compileGlob } from './glob';
import { resolveListingRoot, type ListingRoot } from './listing-root';
import { isSensitivePath } from './path-classification';
import { buildSearchRegex, matchFile, type MatchOptions } from './search-matcher';
import {
  renderSearchReport,
  SEARCH_OUTPUT_MODES,
  type SearchFindings,
  type SearchOutputMode,
} from './search-report';
import {
  optionalBoolean,
  optionalInteger,
  optionalString,
  requiredString,
  type ToolArgs,
} from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { successOutput } from './tool-output';
import { walkFiles } from './workspace-walk';

const DEFAULT_HEAD_LIMIT = 250;

interface SearchTarget {
  absolute: string;
  workspaceRelative: string;
}

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
): Promise<{ targets: SearchTarget[]; sensitiveOmitted: number }> {
  const targets: SearchTarget[] = [];
  let sensitiveOmitted = 0;
  const consider = (target: SearchTarget): void => {
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

/** Text of a searchable file, or null for unreadable and binary files. */
async function readSearchableText(absolute: string): Promise<string | null> {
  const bytes = await fs.readFile(absolute).catch(() => null);
  if (bytes === null || looksBinary(bytes)) return null;
  // Lenient: a stray invalid byte should not hide the rest of a text file from search.
  return new TextDecoder('utf-8').decode(bytes);
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
    const matchOptions: MatchOptions = {
      regex,
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

    const findings: SearchFindings = { fileCounts: [], rows: [], totalMatches: 0 };
    let filesSearched = 0;
    for (const target of targets) {
      const text = await readSearchableText(target.absolute);
      if (text === null) continue;
      filesSearched += 1;
      const result = matchFile(target.workspaceRelative, text, matchOptions);
      if (result.matches === 0) continue;
      findings.fileCounts.push([target.workspaceRelative, result.matches]);
      findings.totalMatches += result.matches;
      for (const row of result.rows) findings.rows.push(row);
    }

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
    });
  });
}
