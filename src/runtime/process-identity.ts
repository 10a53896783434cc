/**
 * An owner token a later process cannot share (issue 12 items 7 and 11: the owner of running turns
 * and of shell commands): the boot id and the process's start time in clock ticks since boot, both
 * from procfs. A pid alone is reused after the owner dies, which left crashed turns `running`
 * forever; a reused pid has a different start time. Null where procfs is unavailable (restart
 * recovery then trusts the pid).
 */
import { readFileSync } from 'node:fs';

/** Field 22 of /proc/PID/stat; fields after the `)` closing the command name start at field 3. */
const START_TIME_FIELD_AFTER_COMMAND = 22 - 3;

function readProcFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

let bootId: string | null | undefined;

function currentBootId(): string | null {
  if (bootId === undefined) bootId = readProcFile('/proc/sys/kernel/random/boot_id')?.trim() || null;
  return bootId;
}

/** `BOOT_ID:START_TICKS` of the live process `pid`; null when it is gone or procfs is missing. */
export function processStartToken(pid: number): string | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  const boot = currentBootId();
  const stat = readProcFile(`/proc/${pid}/stat`);
  if (boot === null || stat === null) return null;
  // The command name may itself contain spaces and parentheses: split after the last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTicks = fields[START_TIME_FIELD_AFTER_COMMAND];
  return startTicks === undefined || !/^\d+$/.test(startTicks) ? null : `${boot}:${startTicks}`;
}

let ownToken: string | null | undefined;

/** This process's token, computed once. */
export function ownProcessToken(): string | null {
  if (ownToken === undefined) ownToken = processStartToken(process.pid);
  return ownToken;
}
