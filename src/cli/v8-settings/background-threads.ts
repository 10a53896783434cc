/**
 * A server process lets the threads V8 starts with it (its platform workers: optimizing
 * compilation, concurrent marking and sweeping) yield to the threads that serve requests
 * (issue 11).
 *
 * On a machine with few cores the server shares them with its clients and the model connection.
 * When a worker holds a core as a notification is due, the main thread, woken by the model's
 * socket, waits for the scheduler to preempt the worker, and the delta reaches the client late;
 * at an equal nice value the scheduler often lets the worker finish its slice first. A higher nice
 * value on the workers makes the woken main thread preempt them at once; they still take every core
 * nobody else wants, so compilation and marking finish as before on an idle machine.
 *
 * Linux only (a nice value there is per thread: `setpriority` with a thread id), and only the
 * threads present before the first asynchronous I/O: then every thread but the main one is V8's.
 * libuv's pool (file system, sqlite3 statements) starts later from the main thread and keeps its
 * nice value, since store writes are on the notification path.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How far the workers step back: enough for wakeup preemption, not so far they starve on a busy host. */
export const BACKGROUND_THREAD_NICE_STEP = 10;
/** The lowest priority there is. */
const MAX_NICE = 19;

/** The ids of the process's threads other than the main one; none where /proc is not Linux's. */
function otherThreadIds(): number[] {
  if (process.platform !== 'linux') return [];
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid !== process.pid);
  } catch {
    return [];
  }
}

/**
 * Lowers the priority of every thread but the main one by `step` nice levels; call before any
 * asynchronous I/O. Returns how many threads it reached (a thread that has gone, or a host that
 * refuses, is left as it is).
 */
export function yieldBackgroundThreads(step: number = BACKGROUND_THREAD_NICE_STEP): number {
  let reached = 0;
  for (const tid of otherThreadIds()) {
    try {
      setPriority(tid, Math.min(MAX_NICE, getPriority(tid) + step));
      reached += 1;
    } catch {
      // The thread ended meanwhile, or the host forbids it: the process runs as before.
    }
  }
  return reached;
}
