/**
 * File tools obey the sandbox mode too (docs/spec/sandbox.md §1): no writes at all in `read-only`, and
 * none into the protected `.git/` / `.vv-agent/` below the workspace in `workspace-write` — the same
 * places a sandboxed command cannot write, so a file tool is no way around the boundary.
 */
import { dirname, join, relative, sep } from 'node:path';

import type { RunSandbox } from './run-sandbox';
import { isWithin, PROTECTED_DIRECTORY_NAMES, realPathOrNull } from './sandbox-paths';

export const READ_ONLY_WRITE_MESSAGE = 'Writes are not allowed in read-only sandbox mode.';

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realTarget(path: string): string {
  const real = realPathOrNull(path);
  if (real !== null) return real;
  const parent = dirname(path);
  return parent === path ? path : join(realTarget(parent), path.slice(parent.length + 1));
}

/** The denial message for a write of `absolutePath` under `sandbox`; null when it is allowed. */
export function sandboxWriteDenial(
  sandbox: RunSandbox,
  workspace: string,
  absolutePath: string,
): string | null {
  if (sandbox.mode === 'danger-full-access') return null;
  if (sandbox.mode === 'read-only') return READ_ONLY_WRITE_MESSAGE;
  const roots = [workspace, ...(sandbox.boundary?.extraWritableRoots ?? [])];
  const target = realTarget(absolutePath);
  for (const root of roots) {
    const realRoot = realPathOrNull(root) ?? root;
    for (const name of PROTECTED_DIRECTORY_NAMES) {
      const guarded = realTarget(join(realRoot, name));
      if (isWithin(target, guarded)) {
        const shown = relative(realRoot, target).split(sep).join('/');
        return `Writes into ${shown} are not allowed: ${name}/ stays read-only in workspace-write sandbox mode.`;
      }
    }
  }
  return null;
}
