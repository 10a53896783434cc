/**
 * Picks the CommandSandbox of this platform (docs/spec/sandbox.md §3): bubblewrap on Linux. macOS
 * would take a Seatbelt (`sandbox-exec`) implementation of the same CommandSandbox port — a profile
 * that denies writes outside the writable roots, reads of the hidden paths and the network — which
 * does not exist yet, so there (and everywhere else) the fail-closed rule applies.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

import { BubblewrapSandbox } from './bubblewrap-sandbox';
import type { CommandSandbox } from './command-sandbox';
import type { HiddenPathList } from './sandbox-paths';
import { UnavailableSandbox } from './unavailable-sandbox';

export interface SandboxRequest {
  hidden: HiddenPathList;
  extraWritableRoots: readonly string[];
  networkAllowed: boolean;
  /** The server's PATH, searched for `bwrap` once. */
  searchPath: string | undefined;
  platform?: NodeJS.Platform;
}

/** The first executable `bwrap` in the absolute PATH entries; relative entries are never trusted. */
export function findExecutable(name: string, searchPath: string | undefined): string | null {
  for (const dir of (searchPath ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Opens and probes the platform's sandbox; never throws (an unusable one reports its cause). */
export function openPlatformSandbox(request: SandboxRequest): CommandSandbox {
  const platform = request.platform ?? process.platform;
  if (platform === 'darwin') return new UnavailableSandbox('macOS Seatbelt support is not implemented yet');
  if (platform !== 'linux') return new UnavailableSandbox(`no sandbox for platform ${platform}`);
  const bwrapPath = findExecutable('bwrap', request.searchPath);
  if (bwrapPath === null) return new UnavailableSandbox('bwrap not found on PATH; install bubblewrap');
  return new BubblewrapSandbox({
    bwrapPath,
    hidden: request.hidden,
    extraWritableRoots: request.extraWritableRoots,
    networkAllowed: request.networkAllowed,
  }).probe();
}
