/**
 * The setting of the sandbox e2e tests (docs/spec/sandbox.md §5): a base folder OUTSIDE the OS temp dir
 * (a sandboxed command sees `/tmp` as a private tmpfs, so a target there would prove nothing), holding a
 * fake home with credentials, an outside folder with a file to attack, and the e2e sandbox (settings
 * with a recognisable API key, store, workspace). The workspace is a git repository with a small npm
 * package, so the tests can show the work that must still succeed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  E2eSandbox,
  isTurnCompleted,
  lastItemStates,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
} from './app-server-session';
import { bashReply, finishReply } from './model-replies';

export const API_KEY = 'sk-e2e-sandbox-secret-7f3a9c';
export const SSH_KEY_TEXT = 'SSH-PRIVATE-KEY-DO-NOT-LEAK';
export const OUTSIDE_TEXT = 'original outside text';

export interface SandboxScenario {
  base: string;
  home: string;
  outside: string;
  /** A file outside every writable root. */
  target: string;
  sandbox: E2eSandbox;
  /** The server environment: the fake home, and `/tmp` as TMPDIR (the base is read-only inside). */
  env: NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', ...args], { cwd });
}

/** A package whose `build` writes `out.js` and whose `test` checks it; committed, then one line changed. */
function writeProject(workspace: string): void {
  writeFileSync(
    join(workspace, 'package.json'),
    JSON.stringify({
      name: 'tiny',
      version: '1.0.0',
      scripts: { build: 'node build.js', test: 'node test.js' },
    }),
  );
  writeFileSync(
    join(workspace, 'build.js'),
    "require('fs').writeFileSync('out.js', 'module.exports = 2;\\n');\n",
  );
  writeFileSync(
    join(workspace, 'test.js'),
    "if (require('./out.js') !== 2) process.exit(1);\nconsole.log('tiny tests passed');\n",
  );
  git(workspace, 'init', '-q', '.');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-qm', 'init');
  writeFileSync(join(workspace, 'test.js'), `${readFileSync(join(workspace, 'test.js'), 'utf8')}// edited\n`);
}

export async function createSandboxScenario(prefix: string): Promise<SandboxScenario> {
  const base = mkdtempSync(join(homedir(), `.${prefix}`));
  const home = join(base, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${SSH_KEY_TEXT}\n`);
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'credentials'), 'aws_secret_access_key = AWS-DO-NOT-LEAK\n');
  const outside = join(base, 'outside');
  mkdirSync(outside);
  const target = join(outside, 'target.txt');
  writeFileSync(target, OUTSIDE_TEXT);
  const sandbox = await E2eSandbox.create('server-', { parentDir: base, apiKey: API_KEY });
  writeProject(sandbox.workspace);
  return {
    base,
    home,
    outside,
    target,
    sandbox,
    env: { HOME: home, TMPDIR: '/tmp' },
    async dispose() {
      await sandbox.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

export interface ApprovedRun {
  threadId: string;
  turnId: string;
  approval: Record<string, unknown>;
  /** The final payload of the bash toolCall item. */
  toolCall: Record<string, unknown>;
  output: string;
  traffic: JsonMessage[];
}

/** The last state of the first toolCall item of a turn's traffic. */
export function toolCallPayload(traffic: JsonMessage[]): Record<string, unknown> {
  const item = lastItemStates(traffic).find((state) => state.type === 'toolCall');
  if (item === undefined) throw new Error(`no toolCall item in ${JSON.stringify(traffic)}`);
  return item.payload as Record<string, unknown>;
}

/**
 * One approved `bash` command end to end, as a client sees it: the model asks for it, the server
 * asks the owner (approval/request, answered `allow`), the command runs, the turn completes.
 */
export async function runApproved(
  sandbox: E2eSandbox,
  session: AppServerSession,
  command: string,
  params: { thread?: Record<string, unknown>; turn?: Record<string, unknown> } = {},
): Promise<ApprovedRun> {
  sandbox.model.enqueue(bashReply(command), finishReply('done'));
  const { threadId } = await session.startThread({ cwd: sandbox.workspace, ...params.thread });
  const { turnId } = await session.call<{ turnId: string }>('turn/start', {
    threadId,
    input: [{ type: 'text', text: 'run it' }],
    ...params.turn,
  });
  const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m);
  session.answer(request.id, { decision: 'allow' });
  const traffic = await session.collectUntil(isTurnCompleted(threadId), 60_000);
  const toolCall = toolCallPayload(traffic);
  return {
    threadId,
    turnId,
    approval: paramsOf(request),
    toolCall,
    output: String(toolCall.output ?? ''),
    traffic,
  };
}

/**
 * Host processes whose command line contains `needle` (the test's own scan, outside any sandbox);
 * with `atStart`, only those whose command line begins with it (the program itself, not a shell or
 * bwrap that carries the text as an argument).
 */
export function hostProcessesWith(needle: string, atStart = false): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (atStart ? cmdline.startsWith(needle) : cmdline.includes(needle)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * The probe of issue #43: find `--settings` in the parent's command line (and, failing that, in
 * any visible process's), then print that file — which holds the API key.
 */
export function secretsProbe(settingsPath: string): string {
  return [
    `settings=$(tr '\\0' '\\n' < /proc/$PPID/cmdline | grep -A1 -x -- --settings | tail -n1)`,
    `for p in /proc/[0-9]*; do tr '\\0' '\\n' < $p/cmdline 2>/dev/null | grep -A1 -x -- --settings | tail -n1; done > /tmp/found`,
    `for f in "$settings" $(cat /tmp/found) ${settingsPath}; do cat "$f"; done`,
    'true',
  ].join('; ');
}
