/**
 * The server process's own threads (issue 11, src/cli/v8-settings/background-threads.ts): the
 * threads V8 starts with the process step back 10 nice levels, so the main thread, woken by the
 * model's socket, preempts them; the main thread and libuv's pool (sqlite3 statements on the
 * notification path) keep the process's priority. The real CLI over stdio with a real sqlite store.
 * Linux only: elsewhere a nice value is not per thread. Build first (`npm run build`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { E2eSandbox } from '../helpers/app-server-session';
import type { JsonlChild } from '../helpers/jsonl-child';

jest.setTimeout(30_000);

/** Linux, and room for 10 more nice levels: a test process already at nice 10 or more could not tell. */
const linuxIt = process.platform === 'linux' && getPriority() < 10 ? it : it.skip;

/** tid → nice value of every thread of `pid` (/proc/<pid>/task/<tid>/stat, field 19). */
function threadNiceValues(pid: number): Map<number, number> {
  const values = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the parenthesised command name, which may itself hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    values.set(Number(tid), Number(fields[16]));
  }
  return values;
}

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-server-threads-e2e-');
});

afterEach(async () => {
  await sandbox.dispose();
});

linuxIt(
  "V8's worker threads step back 10 nice levels from the main thread; threads started later keep its priority",
  async () => {
    const session = sandbox.spawn();
    await session.initialize();
    // A store write: sqlite3 runs its statements on libuv's pool, started now from the main thread.
    await session.call('thread/start', { cwd: sandbox.workspace });
    const pid = (session.child as JsonlChild).process.pid as number;
    const nice = threadNiceValues(pid);
    // Relative to the process's priority, as the CI may run everything niced.
    const base = nice.get(pid) as number;
    const stepped = base + 10;
    const others = [...nice].filter(([tid]) => tid !== pid).map(([, value]) => value);
    // Node 20 starts 4 platform workers (V8's default pool) and their delayed-task thread.
    expect(others.filter((value) => value === stepped).length).toBeGreaterThanOrEqual(4);
    // libuv's pool (4 threads by default) came after and runs at the process's priority.
    expect(others.filter((value) => value === base).length).toBeGreaterThanOrEqual(1);
    expect(others.every((value) => value === base || value === stepped)).toBe(true);
    await session.close();
  },
);
