/** VmRSS of a process from /proc/<pid>/status (Linux), in MiB. */
import { readFileSync } from 'node:fs';

export function residentMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) / 1024;
}
