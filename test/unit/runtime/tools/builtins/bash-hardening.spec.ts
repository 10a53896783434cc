/**
 * Attacks on `bash` from issue 12 (docs/spec/runtime.md §10.6 v1.1): secrets in the server environment, a
 * profile the agent wrote, background and `setsid` children, and a command printing without end.
 */
import { promises as fs } from 'node:fs';

import { commandEnvironment } from '../../../../../src/runtime/tools/builtins/shell-environment';
import type { ToolContext } from '../../../../../src/runtime/tools/types';
import { callTool, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

jest.setTimeout(30_000);

/** True while `pid` is a live (non-zombie) process. */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function aliveAfterSettling(pids: number[]): Promise<number[]> {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const alive = (await Promise.all(pids.map(async (pid) => ((await isAlive(pid)) ? [pid] : [])))).flat();
    if (alive.length === 0) return alive;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids;
}

describe('bash hardening', () => {
  let ws: TempWorkspace;
  let ctx: ToolContext;
  const saved = { ...process.env };
  beforeEach(async () => {
    ws = await makeWorkspace();
    ctx = makeContext(ws.root);
  });
  afterEach(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await ws.remove();
  });
  const bash = (args: Record<string, unknown>) => callTool('bash', ctx, args);

  it('withholds secret-looking and vv-agent variables and keeps the rest', async () => {
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-leak-1',
      GITHUB_TOKEN: 'leak-2',
      DB_PASSWORD: 'leak-3',
      MY_SECRET_THING: 'leak-4',
      AWS_CREDENTIALS_FILE: 'leak-5',
      VV_AGENT_HOME: 'leak-6',
      PLAIN_SETTING: 'visible',
    });
    const result = await bash({ command: 'env' });
    expect(result.status).toBe('success');
    expect(result.content).not.toMatch(/leak-/);
    expect(result.content).toContain('PLAIN_SETTING=visible');
    expect(result.content).toMatch(/^PATH=/m);
  });

  it('drops BASH_ENV and ENV, which a non-interactive bash would source', () => {
    expect(commandEnvironment({ BASH_ENV: '/x', ENV: '/y', HOME: '/h' })).toEqual({ HOME: '/h' });
  });

  it('runs no profile, rc or BASH_ENV file the agent wrote', async () => {
    const ran = `${ws.root}/ran.txt`;
    for (const file of ['.bash_profile', '.bash_login', '.profile', '.bashrc', 'env.sh']) {
      await ws.write(file, `echo ${file} >> ${ran}\n`);
    }
    Object.assign(process.env, { HOME: ws.root, BASH_ENV: `${ws.root}/env.sh` });
    const result = await bash({ command: 'echo ok' });
    expect(result.content).toBe('ok\n');
    await expect(fs.readFile(ran, 'utf8')).rejects.toThrow();
  });

  it('kills background, disowned, nohup and setsid children when the command ends', async () => {
    const command = [
      'sleep 1000 & echo $! >> pids',
      'nohup sleep 1000 >/dev/null 2>&1 & echo $! >> pids',
      'sleep 1000 & disown; echo $! >> pids',
      'setsid sleep 1000 & echo $! >> pids',
      // A double fork into a new session: its parent exits, so it is reparented at once.
      "( setsid bash -c 'sleep 1000 & echo $! >> pids' & )",
      // Until every child has written its pid (bounded: 10 s), not a fixed sleep: the double fork
      // takes several fork/execs, slow on a loaded machine.
      'for i in $(seq 200); do [ -f pids ] && [ "$(wc -l < pids)" -ge 5 ] && break; sleep 0.05; done; echo started',
    ].join('\n');
    const result = await bash({ command });
    expect(result.content).toBe('started\n');
    const pids = (await ws.read('pids')).toString().trim().split('\n').map(Number);
    expect(pids).toHaveLength(5);
    expect(await aliveAfterSettling(pids)).toEqual([]);
  });

  it('kills a child that cleared its environment and left the session (env -i setsid)', async () => {
    const command = [
      "env -i setsid bash -c 'echo $$ >> pids; exec sleep 1000' >/dev/null 2>&1 &",
      'for i in $(seq 200); do [ -s pids ] && break; sleep 0.05; done; echo started',
    ].join('\n');
    const result = await bash({ command });
    expect(result.content).toBe('started\n');
    const pids = (await ws.read('pids')).toString().trim().split('\n').map(Number);
    expect(pids).toHaveLength(1);
    expect(await aliveAfterSettling(pids)).toEqual([]);
  });

  it('kills setsid children on timeout too', async () => {
    const result = await bash({ command: 'setsid sleep 1000 & echo $! > pid; sleep 1000', timeout: 1 });
    expect(result.error_code).toBe('command_timeout');
    const pid = Number((await ws.read('pid')).toString());
    expect(await aliveAfterSettling([pid])).toEqual([]);
  });

  it('caps the captured output and the artifact of a command that prints without end', async () => {
    const result = await bash({ command: 'timeout 2 yes; echo done-at-end' });
    expect(result.truncated).toBe(true);
    expect(result.truncation_reason).toBe('output_limit');
    const artifact = result.artifact!;
    expect(artifact.size_bytes).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect((await fs.stat(`${ws.root}/${artifact.path}`)).size).toBe(artifact.size_bytes);
    expect(result.metadata).toMatchObject({ output_limit_bytes: 64 * 1024 * 1024 });
    expect(result.metadata.discarded_bytes).toEqual(expect.any(Number));
    expect(result.original_bytes).toBeGreaterThan(artifact.size_bytes);
  });
});

describe('artifact pruning', () => {
  it('removes artifacts older than 7 days before the first artifact of a workspace is written', async () => {
    const ws = await makeWorkspace();
    try {
      const old = await ws.write('.vv-agent/artifacts/run_old/call-1.txt', 'old');
      const recent = await ws.write('.vv-agent/artifacts/run_new/call-2.txt', 'recent');
      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
      await fs.utimes(old, eightDaysAgo, eightDaysAgo);
      const result = await callTool('bash', makeContext(ws.root), {
        command: "head -c 13000 /dev/zero | tr '\\0' q",
      });
      expect(result.truncated).toBe(true);
      await expect(fs.access(old)).rejects.toThrow();
      await expect(fs.access(`${ws.root}/.vv-agent/artifacts/run_old`)).rejects.toThrow();
      expect(await fs.readFile(recent, 'utf8')).toBe('recent');
    } finally {
      await ws.remove();
    }
  });
});
