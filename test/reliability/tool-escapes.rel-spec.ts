/**
 * Escapes (issue 12 items 4, 6, 7), against the built CLI with `--approval-policy never` so every
 * tool runs: path tricks that try to read or write outside the workspace (traversal, absolute
 * paths, symlinks to outside files and directories), and shell children that try to outlive their
 * command (`&`, `nohup`, `setsid`, `disown`). An escape is outside content in a tool output, a file
 * created outside, or a process still alive after its turn completed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  type AppServerSession,
  E2eSandbox,
  isTurnCompleted,
  type JsonMessage,
  paramsOf,
} from '../helpers/app-server-session';
import { assistantReply, finishReply } from '../helpers/model-replies';
import { expectAttacksHeld } from './support/attack-tally';

jest.setTimeout(90_000);

const SUITE = 'tool-escapes';
/**
 * These attacks test the v1.1 process-tree kill (runtime.md §10.6) from the host: the pids a command
 * prints must be host pids. Inside the OS sandbox (the default since v1.2) a command sees only its
 * own PID namespace, so the suite runs unsandboxed, where that kill is all there is; the sandboxed
 * case (no survivor, also of a SIGKILLed server) is test/e2e/sandbox.e2e-spec.ts.
 */
const UNSANDBOXED = ['--sandbox', 'danger-full-access'];
const SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';

function toolOutputs(traffic: JsonMessage[]): string[] {
  return traffic
    .filter(
      (m) =>
        m.method === 'item/completed' &&
        paramsOf(m).type === 'toolCall' &&
        (paramsOf(m).payload as Record<string, unknown>).toolName !== 'task_finish',
    )
    .map((m) => JSON.stringify(paramsOf(m).payload));
}

/** Running (not a zombie: a dead child reparented to an init that does not reap still has a pid). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('tool calls cannot escape the workspace', () => {
  let sandbox: E2eSandbox;
  let session: AppServerSession;
  let outside: string;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-rel-escape-');
    outside = join(sandbox.root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    symlinkSync(outside, join(sandbox.workspace, 'dirlink'));
    symlinkSync(join(outside, 'secret.txt'), join(sandbox.workspace, 'filelink'));
    mkdirSync(join(sandbox.workspace, 'sub'));
    session = sandbox.spawn({ args: ['--approval-policy', 'never', ...UNSANDBOXED] });
    await session.initialize();
  });
  afterEach(() => sandbox.dispose());

  async function runTools(
    calls: Array<{ name: string; arguments: Record<string, unknown> }>,
  ): Promise<JsonMessage[]> {
    sandbox.model.enqueue(
      assistantReply(calls.map((call, index) => ({ id: `call_${index}`, ...call }))),
      finishReply('done'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'try it' }] });
    return session.collectUntil(isTurnCompleted(threadId), 60_000);
  }

  it('never returns outside content or writes outside, whatever the path', async () => {
    const secretPaths = [
      '../outside/secret.txt',
      join(outside, 'secret.txt'),
      './../outside/secret.txt',
      'sub/../../outside/secret.txt',
      'dirlink/secret.txt',
      'filelink',
      'dirlink/../dirlink/secret.txt',
      `${sandbox.workspace}/../outside/secret.txt`,
      '..//outside//secret.txt',
      'sub/../dirlink/./secret.txt',
    ];
    const reads = secretPaths.map((path) => ({ name: 'read_file', arguments: { path } }));
    const searches = ['..', outside, 'dirlink', '../outside'].map((path) => ({
      name: 'search_files',
      arguments: { pattern: 'TOP-SECRET', path },
    }));
    const finds = ['..', outside, 'dirlink'].map((path) => ({ name: 'find_files', arguments: { path } }));
    const writePaths = [
      '../outside/written-1.txt',
      join(outside, 'written-2.txt'),
      'dirlink/written-3.txt',
      'sub/../../outside/written-4.txt',
      'filelink',
    ];
    const writes = writePaths.map((path) => ({ name: 'write_file', arguments: { path, content: 'pwned' } }));
    const traffic = await runTools([...reads, ...searches, ...finds, ...writes]);

    const leaked = toolOutputs(traffic).filter((output) => output.includes(SECRET)).length;
    const written = readdirSync(outside).filter((name) => name.startsWith('written-')).length;
    const overwritten = Number(readFileSync(join(outside, 'secret.txt'), 'utf8') !== `${SECRET}\n`);
    const tried = reads.length + searches.length + finds.length + writes.length;
    expectAttacksHeld(
      SUITE,
      'path escapes (read, search, find, write)',
      { escapes: leaked + written + overwritten },
      tried,
    );
    expect(toolOutputs(traffic)).toHaveLength(tried);
  });

  it('leaves no shell child alive after the turn, however it detaches', async () => {
    // A duration of this run's own, so that pgrep finds only the children these commands started.
    const long = `1000.${process.pid}`;
    const detachers = [
      `sleep ${long} &`,
      `nohup sleep ${long} >/dev/null 2>&1 &`,
      `setsid sleep ${long} >/dev/null 2>&1 &`,
      `(sleep ${long} &) ; sleep 0.1`,
      `sleep ${long} & disown`,
      `env -i setsid sleep ${long} >/dev/null 2>&1 &`,
    ];
    const pidFile = join(sandbox.workspace, 'pids');
    const calls = detachers.map((command) => ({
      name: 'bash',
      arguments: { command: `${command} echo $! >> pids; sleep 0.2; pgrep -f "sleep ${long}" >> pids; true` },
    }));
    await runTools(calls);
    const pids = existsSync(pidFile)
      ? [...new Set(readFileSync(pidFile, 'utf8').split(/\s+/).filter(Boolean).map(Number))].filter(
          (pid) => Number.isInteger(pid) && pid > 0,
        )
      : [];
    await new Promise((resolve) => setTimeout(resolve, 500));
    const alive = pids.filter(isAlive);
    for (const pid of alive) process.kill(pid, 'SIGKILL');
    expectAttacksHeld(
      SUITE,
      'shell children detaching from their command',
      { escapes: alive.length },
      detachers.length,
    );
    expect(pids.length).toBeGreaterThanOrEqual(detachers.length);
  });

  it('stops the shell commands of a SIGKILLed server when the next server starts', async () => {
    const pidFile = join(sandbox.workspace, 'orphan.pid');
    sandbox.model.enqueue(
      assistantReply([
        {
          id: 'call_long',
          name: 'bash',
          arguments: { command: 'sleep 1000 & echo $! > orphan.pid; sleep 1000' },
        },
      ]),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'run long' }] });
    // The shell creates the file before echo writes the pid into it.
    const writtenPid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0);
    const deadline = Date.now() + 10_000;
    while (!(writtenPid() > 0) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const pid = writtenPid();
    expect(pid).toBeGreaterThan(0);
    await session.kill();
    expect(isAlive(pid)).toBe(true); // nothing in a SIGKILLed process can stop it

    const successor = sandbox.spawn({ args: ['--approval-policy', 'never', ...UNSANDBOXED] });
    await successor.initialize();
    const settled = Date.now() + 5_000;
    while (isAlive(pid) && Date.now() < settled) await new Promise((resolve) => setTimeout(resolve, 50));
    const alive = isAlive(pid);
    if (alive) process.kill(pid, 'SIGKILL');
    expectAttacksHeld(SUITE, 'shell children of a SIGKILLed server', { escapes: Number(alive) });
  });
});
