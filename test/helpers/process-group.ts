/**
 * Stops a child started as the leader of its own process group (`detached: true`), such as a
 * browser: SIGTERM to the group, up to `graceMs` for the leader to exit, then SIGKILL to whatever
 * of the group is left (helpers like Chromium's zygote and renderers can outlive the leader).
 */
import type { ChildProcess } from 'node:child_process';

export async function stopProcessGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-(child.pid as number), 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((wake) => (timer = setTimeout(wake, graceMs)))]);
    clearTimeout(timer);
  }
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // The group is already empty.
  }
}
