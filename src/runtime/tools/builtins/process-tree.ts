/**
 * Finding and killing every process a `bash` command started (docs/spec/runtime.md §10.6 v1.1), also those
 * that left its process group or session (`setsid`, `nohup … &`, double forks) and were reparented
 * once their parent exited, so a walk by parent pid alone would miss them. Each command gets a
 * random marker variable in its environment; every descendant inherits it (environments survive
 * fork and exec), and `/proc/<pid>/environ` shows it. `env -i` clears an environment, so each
 * command also inherits an open descriptor of its own anchor file on fd 3, which `/proc/<pid>/fd/3`
 * shows (a process would have to close or move a descriptor it does not know about to lose it). A scan kills the
 * command's group, then every process carrying either mark or descending by ppid from one that
 * does, and repeats until a scan finds none (a process forking while being killed shows up in the
 * next round). Linux only: where `/proc` is missing, only the process group is killed.
 *
 * A process whose environment is not ours to extend (a stdio MCP server: docs/spec/mcp.md §2 lists
 * exactly what it inherits) carries no marker; it is tracked as a process tree instead: its own pid
 * (with its start time, so a reused pid is never taken for it) and what it had started when
 * `recordCommandTree` last looked, each with everything below it by parent pid.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, readdirSync, readFileSync, readlinkSync } from 'node:fs';

export const PROCESS_MARKER_VARIABLE = 'VV_BASH_CALL_MARKER';
const MAX_KILL_ROUNDS = 20;

export function newProcessMarker(): string {
  return randomBytes(16).toString('hex');
}

interface ProcEntry {
  pid: number;
  ppid: number;
  /** Field 22 of `/proc/<pid>/stat`: with the pid, it names one process for good. */
  startTime: string;
  marked: boolean;
}

interface Marks {
  /** `NAME=value` of the marker variable; undefined when the command carries none. */
  variable: string | undefined;
  /** Path of the anchor file every descendant holds open; undefined when there is none. */
  anchorPath: string | undefined;
  /** Known members of the command: pid → start time. */
  members: ReadonlyMap<number, string> | undefined;
}

/** Index of `starttime` (field 22) among the fields after the command name (which start at field 3). */
const START_TIME_FIELD = 22 - 3;

function parseEntry(
  pid: number,
  stat: string,
  environ: string,
  marks: Marks,
  holdsAnchor: (pid: number) => boolean,
): ProcEntry | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields.length <= START_TIME_FIELD || fields[0] === 'Z') return null;
  const startTime = fields[START_TIME_FIELD];
  const marked =
    pid !== process.pid &&
    ((marks.variable !== undefined && environ.split('\0').includes(marks.variable)) ||
      holdsAnchor(pid) ||
      marks.members?.get(pid) === startTime);
  return { pid, ppid: Number(fields[1]), startTime, marked };
}

/**
 * The descriptor number a command inherits its anchor on (stdio slot 3 of the spawn). Only that
 * slot is looked at: one readlink per process instead of every descriptor of every process, on
 * the path every bash call ends through.
 */
export const ANCHOR_FD = 3;

function holdsAnchorSync(pid: number, anchorPath: string | undefined): boolean {
  if (anchorPath === undefined) return false;
  try {
    return readlinkSync(`/proc/${pid}/fd/${ANCHOR_FD}`) === anchorPath;
  } catch {
    return false;
  }
}

/** Marked processes plus everything below them by parent pid. */
function selectTree(entries: ProcEntry[]): ProcEntry[] {
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
  return entries.filter((entry) => selected.has(entry.pid));
}

function numericEntries(names: string[]): number[] {
  return names.filter((name) => /^\d+$/.test(name)).map(Number);
}

async function heldAnchors(pids: number[], anchorPath: string | undefined): Promise<Set<number>> {
  const holders = new Set<number>();
  if (anchorPath === undefined) return holders;
  await Promise.all(
    pids.map(async (pid) => {
      const target = await fs.readlink(`/proc/${pid}/fd/${ANCHOR_FD}`).catch(() => '');
      if (target === anchorPath) holders.add(pid);
    }),
  );
  return holders;
}

async function scan(marks: Marks): Promise<ProcEntry[]> {
  const names = await fs.readdir('/proc').catch(() => [] as string[]);
  const pids = numericEntries(names);
  const holders = await heldAnchors(pids, marks.anchorPath);
  const entries = await Promise.all(
    pids.map(async (pid) => {
      const [stat, environ] = await Promise.all([
        fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''),
        marks.variable === undefined ? '' : fs.readFile(`/proc/${pid}/environ`, 'latin1').catch(() => ''),
      ]);
      return parseEntry(pid, stat, environ, marks, (candidate) => holders.has(candidate));
    }),
  );
  return selectTree(entries.filter((entry): entry is ProcEntry => entry !== null));
}

function scanSync(marks: Marks): ProcEntry[] {
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
        marks.variable === undefined ? '' : readFileSync(`/proc/${pid}/environ`, 'latin1'),
        marks,
        (candidate) => holdsAnchorSync(candidate, marks.anchorPath),
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
  /** The marker variable's value; undefined for a command that carries none (see above). */
  marker?: string;
  /** A file the command holds open on an inherited descriptor (the mark `env -i` cannot clear). */
  anchorPath?: string;
  /** Known members by pid, with their start time: filled by `addCommandRoot` / `recordCommandTree`. */
  members?: Map<number, string>;
  /**
   * Every descendant dies with the group leader (a sandbox's PID namespace, docs/spec/sandbox.md §3):
   * killing the group is exact, and the `/proc` walk — a read of every process's environment — is
   * skipped.
   */
  containedByGroup?: boolean;
}

function marksOf(command: TrackedCommand): Marks {
  return {
    variable: command.marker === undefined ? undefined : `${PROCESS_MARKER_VARIABLE}=${command.marker}`,
    anchorPath: command.anchorPath,
    members: command.members,
  };
}

/** Makes the process `pid` (a command's first process, just spawned) a member of `command`. */
export function addCommandRoot(command: TrackedCommand, pid: number): void {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[START_TIME_FIELD];
    if (startTime !== undefined) (command.members ??= new Map()).set(pid, startTime);
  } catch {
    // Already gone, or no /proc: nothing to track.
  }
}

/**
 * Adds every process of the tree as it stands now to the command's members. Called before a tree's
 * first process is ended: what it started is reparented when it exits, and only a member found
 * here is still known to belong to the command afterwards.
 */
export async function recordCommandTree(command: TrackedCommand): Promise<void> {
  const members = (command.members ??= new Map());
  for (const entry of await scan(marksOf(command))) members.set(entry.pid, entry.startTime);
}

/** SIGKILL to the group and to every marked process, until a scan finds none. */
export async function killCommandTree(command: TrackedCommand): Promise<void> {
  if (command.pgid !== undefined) killQuietly(-command.pgid);
  if (command.containedByGroup === true && command.pgid !== undefined) return;
  for (let round = 0; round < MAX_KILL_ROUNDS; round += 1) {
    const entries = await scan(marksOf(command));
    if (entries.length === 0) return;
    for (const entry of entries) killQuietly(entry.pid);
  }
}

/** The same, synchronously: for the process `exit` hook, where no promise can settle any more. */
export function killCommandTreeSync(command: TrackedCommand): void {
  if (command.pgid !== undefined) killQuietly(-command.pgid);
  if (command.containedByGroup === true && command.pgid !== undefined) return;
  for (let round = 0; round < MAX_KILL_ROUNDS; round += 1) {
    const entries = scanSync(marksOf(command));
    if (entries.length === 0) return;
    for (const entry of entries) killQuietly(entry.pid);
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
