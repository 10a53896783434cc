/**
 * Per-run file baselines (docs/spec/runtime.md §10.5): what a run last saw of a file, so that overwrites and
 * edits cannot clobber content the model never read or that changed underneath it.
 */
import type { ToolContext } from '../types';

export const FILE_BASELINES_STATE_KEY = 'file_baselines';

export type BaselineSource = 'read_file' | 'write_file' | 'edit_file';

export interface FileBaseline {
  /** sha256 hex of the file bytes (BOM included). */
  sha256: string;
  is_partial: boolean;
  source: BaselineSource;
}

export type BaselineProblem = 'file_not_read' | 'file_changed_since_read';

function baselineTable(ctx: ToolContext): Record<string, FileBaseline> {
  const existing = ctx.sharedState[FILE_BASELINES_STATE_KEY];
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) {
    return existing as Record<string, FileBaseline>;
  }
  const fresh: Record<string, FileBaseline> = {};
  ctx.sharedState[FILE_BASELINES_STATE_KEY] = fresh;
  return fresh;
}

/** Key = normalized workspace-relative path. */
export function recordBaseline(ctx: ToolContext, relativePath: string, baseline: FileBaseline): void {
  baselineTable(ctx)[relativePath] = baseline;
}

export function getBaseline(ctx: ToolContext, relativePath: string): FileBaseline | undefined {
  return baselineTable(ctx)[relativePath];
}

/**
 * Checks a baseline against the current bytes' hash. A partial baseline counts only when
 * `allowPartialRead` and it came from `read_file` (a partial append baseline says nothing useful).
 */
export function baselineProblem(
  baseline: FileBaseline | undefined,
  currentSha256: string,
  allowPartialRead: boolean,
): BaselineProblem | null {
  if (baseline === undefined) return 'file_not_read';
  if (baseline.is_partial && !(allowPartialRead && baseline.source === 'read_file')) return 'file_not_read';
  return baseline.sha256 === currentSha256 ? null : 'file_changed_since_read';
}
