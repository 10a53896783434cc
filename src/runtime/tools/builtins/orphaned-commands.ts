/**
 * Shell commands whose server died without killing them (SIGKILL, OOM, power cut of the parent
 * only): every command's anchor file is named after its owner process, so the next server finds
 * the anchors of owners that are gone and kills whatever still holds them (issue 12 item 7 — a
 * SIGKILLed process cannot clean up after itself, its successor can).
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownProcessToken, processStartToken } from '../../process-identity';
import { killCommandTree } from './process-tree';

const ANCHOR_PREFIX = 'vv-bash-anchor';

/** `vv-bash-anchor.<owner pid>.<owner start token>.<marker>`; the token is `-` without procfs. */
export function anchorFileName(marker: string): string {
  return [ANCHOR_PREFIX, process.pid, encodeURIComponent(ownProcessToken() ?? '-'), marker].join('.');
}

interface Anchor {
  path: string;
  ownerPid: number;
  ownerToken: string;
  marker: string;
}

function parseAnchor(directory: string, name: string): Anchor | null {
  const parts = name.split('.');
  if (parts.length !== 4 || parts[0] !== ANCHOR_PREFIX) return null;
  const ownerPid = Number(parts[1]);
  if (!Number.isSafeInteger(ownerPid)) return null;
  return {
    path: join(directory, name),
    ownerPid,
    ownerToken: decodeURIComponent(parts[2]),
    marker: parts[3],
  };
}

function ownerIsAlive(anchor: Anchor): boolean {
  if (anchor.ownerPid === process.pid) return true;
  // Without procfs there is no telling a reused pid apart: leave the anchor alone.
  if (anchor.ownerToken === '-') return true;
  return processStartToken(anchor.ownerPid) === anchor.ownerToken;
}

/**
 * Kills the commands of dead owners and removes their anchors; returns how many anchors were
 * reaped. Safe to run while other servers run: their anchors name a live owner.
 */
export async function reapOrphanedCommands(directory: string = tmpdir()): Promise<number> {
  const names = await fs.readdir(directory).catch(() => [] as string[]);
  let reaped = 0;
  for (const name of names) {
    const anchor = parseAnchor(directory, name);
    if (anchor === null || ownerIsAlive(anchor)) continue;
    await killCommandTree({ pgid: undefined, marker: anchor.marker, anchorPath: anchor.path });
    await fs.rm(anchor.path, { force: true });
    reaped += 1;
  }
  return reaped;
}
