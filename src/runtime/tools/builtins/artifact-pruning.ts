/**
 * Removal of old `bash` output artifacts (docs/spec/runtime.md §10.6 v1.1: older than 7 days). Done once per
 * workspace and process, before the first artifact is written there — the first moment the runtime
 * learns about a workspace — so artifacts cannot pile up across runs.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export const ARTIFACT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const ARTIFACTS_DIRECTORY = '.vv-agent/artifacts';

const pruned = new Set<string>();

/** Deletes artifact files older than the limit and the run directories left empty. */
export async function pruneOldArtifacts(workspace: string, now = Date.now()): Promise<void> {
  const root = path.join(path.resolve(workspace), ARTIFACTS_DIRECTORY);
  if (pruned.has(root)) return;
  pruned.add(root);
  const runs = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const run of runs) {
    // Never follow a symlink planted here: only real directories and files are pruned.
    if (!run.isDirectory()) continue;
    const directory = path.join(root, run.name);
    const files = await fs.readdir(directory, { withFileTypes: true }).catch(() => []);
    let kept = 0;
    for (const file of files) {
      const absolute = path.join(directory, file.name);
      const stats = file.isFile() ? await fs.lstat(absolute).catch(() => null) : null;
      if (stats !== null && now - stats.mtimeMs > ARTIFACT_MAX_AGE_MS) {
        await fs.unlink(absolute).catch(() => undefined);
      } else {
        kept += 1;
      }
    }
    if (kept === 0) await fs.rmdir(directory).catch(() => undefined);
  }
}
