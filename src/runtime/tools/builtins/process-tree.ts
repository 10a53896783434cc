/**
 * Finding and killing every process a `bash` command started (runtime.md §10.6 v1.1), also those
 * that left its process group or session (`setsid`, `nohup … &`, double forks) and were reparented
 * once their parent exited, so a walk by parent pid alone would miss them. Each command gets a
 * random marker variable in its environment; every descendant inherits it (environments survive
 * fork and exec), and `/proc/<pid>/environ` shows it. A scan kills the command's group, then every
 * process carrying the marker or descending by ppid from one that does, and repeats until a scan
 * finds none (a process forking while being killed shows up in the next round). Linux only: where
 * `/proc` is missing, only the process group is killed.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';

export const PROCESS_MARKER_VARIABLE = 'VV_BASH_CALL_MARKER';
const MAX_KILL_ROUNDS = 20;

export function newProcessMarker(): string {
  return randomBytes(16).toString('hex');
}

interface ProcEntry {
  pid: number;
  ppid: number;
  marked: boolean;
}

function parseEntry(pid: number, stat: string, environ: string, marker: string): ProcEntry | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields.length < 2 || fields[0] === 'Z') return null;
  return { pid, ppid: Number(fields[1]), marked: environ.split('\0').includes(marker) };
}

/** Pids carrying the marker plus everything below them by parent pid. */
function selectTree(entries: ProcEntry[]): number[] {
  const selected = new Set(entries.filter((entry) => entry.marked).map((entry) => entry.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of entries) {
      if (!selected.has(entry.pid) && selected.has(entry.ppid)) {
        selected.add(entry.pid);
        grew = true;
      }
    }
  }
  selected.delete(process.pid);
  return [...selected];
}

function numericEntries(names: string[]): number[] {
  return names.filter((name) => /^\d+$/.test(name)).map(Number);
}

async function scan(marker: string): Promise<number[]> {
  const names = await fs.readdir('/proc').catch(() => [] as string[]);
  const entries = await Promise.all(
    numericEntries(names).map(async (pid) => {
      const [stat, environ] = await Promise.all([
        fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''),
        fs.readFile(`/proc/${pid}/environ`, 'latin1').catch(() => ''),
      ]);
      return parseEntry(pid, stat, environ, marker);
    }),
  );
  return selectTree(entries.filter((entry): entry is ProcEntry => entry !== null));
}

function scanSync(marker: string): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcEntry[] = [];
  for (const pid of numericEntries(names)) {
    try {
      const entry = parseEntry(
        pid,
        readFileSync(`/proc/${pid}/stat`, 'utf8'),
        readFileSync(`/proc/${pid}/environ`, 'latin1'),
        marker,
      );
      if (entry) entries.push(entry);
    } catch {
      // Gone or not ours.
    }
  }
  return selectTree(entries);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH/EPERM: nothing left to kill.
  }
}

export interface TrackedCommand {
  /** Leader of the command's process group. */
  pgid: number | undefined;
  marker: string;
}

/** SIGKILL to the group and to every marked process, until a scan finds none. */
export async function killCommandTree(command: TrackedCommand): Promise<void> {
  if (command.pgid !== undefined) killQuietly(-command.pgid);
  for (let round = 0; round < MAX_KILL_ROUNDS; round += 1) {
    const pids = await scan(`${PROCESS_MARKER_VARIABLE}=${command.marker}`);
    if (pids.length === 0) return;
    pids.forEach(killQuietly);
  }
}

/** The same, synchronously: for the process `exit` hook, where no promise can settle any more. */
export function killCommandTreeSync(command: TrackedCommand): void {
  if (command.pgid !== undefined) killQuietly(-command.pgid);
  for (let round = 0; round < MAX_KILL_ROUNDS; round += 1) {
    const pids = scanSync(`${PROCESS_MARKER_VARIABLE}=${command.marker}`);
    if (pids.length === 0) return;
    pids.forEach(killQuietly);
  }
}

const live = new Set<TrackedCommand>();
let exitHookInstalled = false;

/**
 * Registers a running command so that a server exiting mid-command (stdin EOF, SIGTERM, a fatal
 * error) still kills its tree. A SIGKILLed server cannot run this; nothing short of a cgroup or a
 * subreaper could.
 */
export function trackCommand(command: TrackedCommand): () => void {
  live.add(command);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const tracked of live) killCommandTreeSync(tracked);
    });
  }
  return () => live.delete(command);
}
