/**
 * The OS sandbox of approved `bash` commands end to end (docs/spec/sandbox.md §1–§5), with the real
 * `bwrap`, through the built CLI: a fake model asks for each attack as a `bash` call, the client
 * approves it (approval/request → allow), and the test checks from outside the sandbox that nothing
 * happened — and that the work an agent needs (build, test, git) still succeeds. The same attacks
 * succeed under `--sandbox danger-full-access`, which shows the tests can fail. Build first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTurnCompleted, sleep, useTransport, type AppServerSession } from '../helpers/app-server-session';
import { AcpClientProcess, select } from '../helpers/acp-client-process';
import { assistantReply, bashReply, finishReply, requestMessages } from '../helpers/model-replies';
import {
  API_KEY,
  createSandboxScenario,
  hostProcessesWith,
  OUTSIDE_TEXT,
  runApproved,
  secretsProbe,
  SSH_KEY_TEXT,
  toolCallPayload,
  type SandboxScenario,
} from '../helpers/sandbox-scenario';

jest.setTimeout(90_000);

const WORKSPACE_WRITE = { mode: 'workspace-write', network: false };

/** A TCP listener on the host's loopback that counts the connections it sees. */
async function countingListener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, connections: () => count };
}

describe('sandbox: workspace-write (the default) over stdio', () => {
  let scenario: SandboxScenario;
  let session: AppServerSession;

  beforeAll(async () => {
    scenario = await createSandboxScenario('vv-sandbox-e2e-');
    session = scenario.sandbox.spawn({ env: scenario.env });
    await session.initialize();
  });

  afterAll(async () => {
    await scenario.dispose();
  });

  const run = (command: string) => runApproved(scenario.sandbox, session, command);
  const outsideText = () => readFileSync(scenario.target, 'utf8');

  it('initialize reports the capability; approvals and bash items carry payload.sandbox', async () => {
    const init = await session.request('initialize', { clientInfo: { name: 'again' } });
    expect(init.error).toMatchObject({ code: -32011 });
    const { approval, toolCall, output } = await run('echo inside');
    expect(approval.sandbox).toEqual(WORKSPACE_WRITE);
    expect(toolCall).toMatchObject({ status: 'success', errorCode: null, sandbox: WORKSPACE_WRITE });
    expect(output).toBe('inside\n');
    expect(session.child.stderr).not.toContain('sandbox unavailable');
  });

  it('cannot write outside the writable roots: absolute, `..`, symlink, /proc/self/root, mv, hard link', async () => {
    const { target, outside } = scenario;
    const { output, toolCall } = await run(
      [
        `echo pwned > ${target}`,
        `echo pwned > ../../outside/target.txt`,
        `ln -s ${target} link-out && echo pwned > link-out`,
        `echo pwned > /proc/self/root${target}`,
        `echo mine > mine.txt && mv mine.txt ${outside}/moved.txt`,
        `mv ${target} ./stolen.txt`,
        `ln ${target} hard-link`,
        `echo pwned > ${outside}/new.txt`,
        'echo done',
      ].join('; '),
    );
    expect(outsideText()).toBe(OUTSIDE_TEXT);
    expect(existsSync(join(outside, 'moved.txt'))).toBe(false);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    // `mv` across mounts copies and then cannot unlink: the outside file stays where it was.
    expect(existsSync(target)).toBe(true);
    expect(existsSync(join(scenario.sandbox.workspace, 'hard-link'))).toBe(false);
    // §4: the command's own output and exit code, as the model sees them.
    expect(output).toContain('Read-only file system');
    expect(toolCall.sandbox).toEqual(WORKSPACE_WRITE);
  });

  it('cannot read hidden paths: ~/.ssh, ~/.aws, the settings file — also through a workspace symlink and after umount', async () => {
    const { home, sandbox } = scenario;
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(sandbox.workspace, 'key-link'));
    symlinkSync(join(home, '.ssh'), join(sandbox.workspace, 'ssh-dir-link'));
    const { output } = await run(
      [
        `cat ${home}/.ssh/id_rsa`,
        `ls -la ${home}/.ssh`,
        `cat ${home}/.aws/credentials`,
        'cat key-link',
        'cat ssh-dir-link/id_rsa',
        `cat ${sandbox.settingsPath}`,
        `cat ${sandbox.storePath()}`,
        `umount ${home}/.ssh`,
        `umount -l ${home}/.ssh`,
        `cat ${home}/.ssh/id_rsa`,
        'true',
      ].join('; '),
    );
    expect(output).not.toContain(SSH_KEY_TEXT);
    expect(output).not.toContain('AWS-DO-NOT-LEAK');
    expect(output).not.toContain(API_KEY);
    expect(output).not.toContain('SQLite format');
    expect(output).toMatch(/umount: .*(must be superuser|Operation not permitted|permission denied)/i);
  });

  it('the secrets probe of issue #43 (/proc/$PPID/cmdline → --settings → key) finds nothing', async () => {
    const { output } = await run(secretsProbe(scenario.sandbox.settingsPath));
    expect(output).not.toContain(API_KEY);
  });

  it('cannot write .git/hooks or .git/config (nor .vv-agent)', async () => {
    const { workspace } = scenario.sandbox;
    const configBefore = readFileSync(join(workspace, '.git', 'config'), 'utf8');
    const { output } = await run(
      [
        "printf '#!/bin/sh\\necho hooked\\n' > .git/hooks/pre-commit",
        'chmod +x .git/hooks/pre-commit',
        'echo "[core] hooksPath = /x" >> .git/config',
        'mkdir -p .vv-agent 2>/dev/null; true',
        'echo done',
      ].join('; '),
    );
    expect(existsSync(join(workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(workspace, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(output).toContain('Read-only file system');
  });

  it('write_file into .git fails sandbox_denied', async () => {
    const { sandbox } = scenario;
    sandbox.model.enqueue(
      assistantReply([
        { id: 'call_w', name: 'write_file', arguments: { path: '.git/hooks/post-checkout', content: 'x' } },
      ]),
      finishReply('done'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'w' }] });
    const toolCall = toolCallPayload(await session.collectUntil(isTurnCompleted(threadId)));
    expect(toolCall).toMatchObject({ errorCode: 'sandbox_denied' });
    expect(String(toolCall.output)).toContain('.git/ stays read-only');
    expect(existsSync(join(sandbox.workspace, '.git', 'hooks', 'post-checkout'))).toBe(false);
  });

  it('cannot open a network connection: a listener on the host 127.0.0.1 sees nothing', async () => {
    const listener = await countingListener();
    try {
      const { output } = await run(
        `(exec 3<>/dev/tcp/127.0.0.1/${listener.port} && echo connected) 2>&1; curl -sS -m 2 http://127.0.0.1:${listener.port}/ 2>&1; true`,
      );
      await sleep(200);
      expect(listener.connections()).toBe(0);
      expect(output).not.toContain('connected');
    } finally {
      listener.server.close();
    }
  });

  // Never `kill -9 -1` here: should the boundary ever be missing, the test would kill every process of
  // the machine instead of failing (it happened once, without the sandbox). The server's pid is enough.
  it('cannot see or signal the server', async () => {
    const serverPid = session.child.process.pid;
    if (serverPid === undefined) throw new Error('no server pid');
    const { output } = await run(
      [
        `kill -9 ${serverPid}`,
        `cat /proc/${serverPid}/environ`,
        "ls /proc | grep -c '^[0-9]' | sed 's/^/processes:/'",
      ].join('; '),
    );
    expect(output).toMatch(/No such process|No such file/);
    expect(output).not.toContain('VV_AGENT_HOME=');
    // The server answered the whole turn and still answers.
    expect(await session.call('thread/list', {})).toHaveProperty('threads');
    expect(Number(/processes:(\d+)/.exec(output)?.[1])).toBeLessThan(10);
  });

  it('leaves no process running after the turn (setsid, nohup, double fork)', async () => {
    const { output } = await run(
      [
        'setsid sleep 417.25 > /dev/null 2>&1 < /dev/null &',
        '(nohup sleep 417.5 > /dev/null 2>&1 &)',
        'env -i /bin/sleep 417.75 > /dev/null 2>&1 &',
        'echo started',
      ].join('; '),
    );
    expect(output).toContain('started');
    await sleep(300);
    expect(hostProcessesWith('sleep 417.')).toEqual([]);
  });

  it('a timed-out command ends with everything it started (runtime.md §10.6 still holds)', async () => {
    const { sandbox } = scenario;
    sandbox.model.enqueue(
      assistantReply([
        {
          id: 'call_slow',
          name: 'bash',
          arguments: {
            command: 'setsid sleep 419.5 > /dev/null 2>&1 < /dev/null & sleep 419.75',
            timeout: 1,
          },
        },
      ]),
      finishReply('done'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'slow' }] });
    const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m);
    session.answer(request.id, { decision: 'allow' });
    const toolCall = toolCallPayload(await session.collectUntil(isTurnCompleted(threadId)));
    expect(toolCall).toMatchObject({ errorCode: 'command_timeout', sandbox: WORKSPACE_WRITE });
    expect(hostProcessesWith('sleep 419.', true)).toEqual([]);
  });

  it('a command of a SIGKILLed server dies with it (--die-with-parent)', async () => {
    const { sandbox } = scenario;
    const victim = sandbox.spawn({ env: scenario.env, args: ['--approval-policy', 'never'] });
    await victim.initialize();
    sandbox.model.enqueue(bashReply('setsid sleep 418.5 > /dev/null 2>&1 < /dev/null & sleep 418.75'));
    const { threadId } = await victim.startThread({ cwd: sandbox.workspace });
    await victim.call('turn/start', { threadId, input: [{ type: 'text', text: 'run long' }] });
    const deadline = Date.now() + 10_000;
    while (hostProcessesWith('sleep 418.', true).length < 2 && Date.now() < deadline) await sleep(50);
    expect(hostProcessesWith('sleep 418.', true)).toHaveLength(2);
    await victim.kill();
    const settled = Date.now() + 5_000;
    while (hostProcessesWith('sleep 418.').length > 0 && Date.now() < settled) await sleep(50);
    expect(hostProcessesWith('sleep 418.')).toEqual([]);
  });

  it('can build and test a project in its workspace, and use git status / git diff', async () => {
    const { output, toolCall } = await run('npm run build && npm test && git status --short && git diff');
    expect(toolCall).toMatchObject({ status: 'success', errorCode: null });
    expect(output).toContain('tiny tests passed');
    expect(output).toContain(' M test.js');
    expect(output).toContain('+// edited');
    expect(existsSync(join(scenario.sandbox.workspace, 'out.js'))).toBe(true);
  });

  it('a looser sandbox param is refused; a stricter one is stored on the thread and the turn', async () => {
    const looser = 'Invalid params: /sandbox is looser than the server allows (workspace-write)';
    expect(await session.failure('thread/start', { sandbox: 'danger-full-access' })).toEqual({
      code: -32602,
      message: looser,
      data: expect.anything(),
    });
    const { threadId } = await session.startThread({ cwd: scenario.sandbox.workspace });
    expect(
      await session.failure('turn/start', { threadId, input: [], sandbox: 'danger-full-access' }),
    ).toMatchObject({ code: -32602, message: looser });
    expect(await session.failure('thread/start', { sandbox: 'open' })).toMatchObject({
      code: -32602,
      message: 'Invalid params: /sandbox must be one of: read-only, workspace-write, danger-full-access',
    });

    const run = await runApproved(scenario.sandbox, session, 'echo x > turn-ro.txt; echo ok', {
      turn: { sandbox: 'read-only' },
    });
    expect(run.approval.sandbox).toEqual({ mode: 'read-only', network: false });
    expect(existsSync(join(scenario.sandbox.workspace, 'turn-ro.txt'))).toBe(false);
    const read = await session.call<{ thread: Record<string, unknown>; turns: Record<string, unknown>[] }>(
      'thread/read',
      { threadId: run.threadId },
    );
    expect(read.thread.sandbox).toBe('workspace-write');
    expect(read.turns.map((turn) => turn.sandbox)).toEqual(['read-only']);
  });

  it('read-only: nothing but /tmp is writable; write_file fails sandbox_denied', async () => {
    const { sandbox } = scenario;
    const run = await runApproved(
      sandbox,
      session,
      'echo x > ro.txt; echo y > /tmp/scratch && cat /tmp/scratch',
      { thread: { sandbox: 'read-only' } },
    );
    expect(run.approval.sandbox).toEqual({ mode: 'read-only', network: false });
    expect(run.output).toContain('Read-only file system');
    expect(run.output).toContain('y\n');
    expect(existsSync(join(sandbox.workspace, 'ro.txt'))).toBe(false);

    sandbox.model.enqueue(
      assistantReply([{ id: 'call_w', name: 'write_file', arguments: { path: 'ro2.txt', content: 'x' } }]),
      finishReply('done'),
    );
    await session.call('turn/start', { threadId: run.threadId, input: [{ type: 'text', text: 'w' }] });
    const toolCall = toolCallPayload(await session.collectUntil(isTurnCompleted(run.threadId)));
    expect(toolCall).toMatchObject({ errorCode: 'sandbox_denied' });
    expect(String(toolCall.output)).toContain('Writes are not allowed in read-only sandbox mode.');
    expect(existsSync(join(sandbox.workspace, 'ro2.txt'))).toBe(false);
    const read = await session.call<{ thread: Record<string, unknown> }>('thread/read', {
      threadId: run.threadId,
    });
    expect(read.thread.sandbox).toBe('read-only');
  });
});

describe('sandbox off (--sandbox danger-full-access): the same attacks succeed, so the tests above can fail', () => {
  let scenario: SandboxScenario;
  let session: AppServerSession;

  beforeAll(async () => {
    scenario = await createSandboxScenario('vv-sandbox-off-e2e-');
    session = scenario.sandbox.spawn({ env: scenario.env, args: ['--sandbox', 'danger-full-access'] });
    await session.initialize();
  });

  afterAll(async () => {
    await scenario.dispose();
  });

  it('the secrets probe prints the API key; outside writes and ~/.ssh reads go through; no payload.sandbox', async () => {
    const probe = await runApproved(scenario.sandbox, session, secretsProbe(scenario.sandbox.settingsPath));
    expect(probe.output).toContain(API_KEY);
    expect(probe.toolCall.sandbox).toBeUndefined();
    expect(probe.approval.sandbox).toEqual({ mode: 'danger-full-access', network: true });

    const attack = await runApproved(
      scenario.sandbox,
      session,
      `cat ${scenario.home}/.ssh/id_rsa; echo pwned > ${scenario.target}`,
    );
    expect(attack.output).toContain(SSH_KEY_TEXT);
    expect(readFileSync(scenario.target, 'utf8')).toBe('pwned\n');
  });
});

describe('fail closed: without a working bwrap', () => {
  let scenario: SandboxScenario;
  let binDir: string;

  beforeAll(async () => {
    scenario = await createSandboxScenario('vv-sandbox-closed-e2e-');
    // A PATH with bash but no bwrap: the clean way the spec allows (§3 "no `bwrap`").
    binDir = mkdtempSync(join(tmpdir(), 'vv-sandbox-bin-'));
    symlinkSync('/bin/bash', join(binDir, 'bash'));
  });

  afterAll(async () => {
    rmSync(binDir, { recursive: true, force: true });
    await scenario.dispose();
  });

  it('starts, says so once on stderr, reports available:false, and bash fails sandbox_unavailable', async () => {
    const session = scenario.sandbox.spawn({ env: { ...scenario.env, PATH: binDir } });
    const init = await session.call<{ capabilities: Record<string, unknown> }>('initialize', {
      clientInfo: { name: 'e2e' },
    });
    expect(init.capabilities.sandbox).toEqual({ available: false, maxMode: 'workspace-write' });
    const marker = join(scenario.sandbox.workspace, 'ran.txt');
    const { toolCall } = await runApproved(scenario.sandbox, session, `touch ${marker}`);
    expect(toolCall).toMatchObject({ errorCode: 'sandbox_unavailable' });
    expect(String(toolCall.output)).toContain('--sandbox danger-full-access');
    expect(existsSync(marker)).toBe(false);
    const lines = session.child.stderr.split('\n').filter((line) => line.includes('sandbox unavailable'));
    expect(lines).toEqual([
      'vv-agent: sandbox unavailable (bwrap not found on PATH; install bubblewrap); bash calls will fail until --sandbox danger-full-access is chosen',
    ]);
  });

  it('--sandbox danger-full-access is the explicit way out: bash runs, no stderr line', async () => {
    const session = scenario.sandbox.spawn({
      env: { ...scenario.env, PATH: binDir },
      args: ['--sandbox', 'danger-full-access'],
    });
    await session.initialize();
    const { toolCall, output } = await runApproved(scenario.sandbox, session, 'echo unsandboxed');
    expect(toolCall).toMatchObject({ status: 'success' });
    expect(output).toBe('unsandboxed\n');
    expect(session.child.stderr).not.toContain('sandbox unavailable');
  });

  it('a --sandbox-writable-root inside a hidden path is a usage error (exit 2)', async () => {
    const hidden = join(scenario.home, '.ssh');
    const session = scenario.sandbox.spawn({ env: scenario.env, args: ['--sandbox-writable-root', hidden] });
    expect(await session.close()).toMatchObject({ code: 2 });
    expect(session.child.stderr).toContain(`--sandbox-writable-root ${hidden} lies inside a hidden path`);
  });
});

describe('sandbox: the same boundary over WebSocket and ACP', () => {
  let scenario: SandboxScenario;

  beforeAll(async () => {
    scenario = await createSandboxScenario('vv-sandbox-transports-e2e-');
  });

  afterAll(async () => {
    useTransport('stdio');
    await scenario.dispose();
  });

  it('over WebSocket: an approved command cannot write outside or read ~/.ssh', async () => {
    useTransport('ws');
    const session = scenario.sandbox.spawn({ env: scenario.env });
    await session.initialize();
    const { output, approval } = await runApproved(
      scenario.sandbox,
      session,
      `cat ${scenario.home}/.ssh/id_rsa; echo pwned > ${scenario.target}; true`,
    );
    useTransport('stdio');
    expect(approval.sandbox).toEqual(WORKSPACE_WRITE);
    expect(output).not.toContain(SSH_KEY_TEXT);
    expect(readFileSync(scenario.target, 'utf8')).toBe(OUTSIDE_TEXT);
  });

  it('over ACP: an allowed command cannot write outside, read ~/.ssh or the settings', async () => {
    const { sandbox } = scenario;
    sandbox.model.enqueue(
      bashReply(
        `cat ${scenario.home}/.ssh/id_rsa ${sandbox.settingsPath}; echo pwned > ${scenario.target}; true`,
      ),
      finishReply('done'),
    );
    const client = AcpClientProcess.spawn(sandbox, { env: scenario.env, permission: () => select('allow') });
    try {
      await client.initialize();
      const { sessionId } = await client.agent.request('session/new', {
        cwd: sandbox.workspace,
        mcpServers: [],
      });
      await client.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      expect(client.permissionRequests).toHaveLength(1);
      const toolResults = requestMessages(sandbox.model.requests[sandbox.model.requests.length - 1].body)
        .filter((message) => message.role === 'tool')
        .map((message) => String(message.content))
        .join('\n');
      expect(toolResults).toContain('Read-only file system');
      expect(toolResults).not.toContain(SSH_KEY_TEXT);
      expect(toolResults).not.toContain(API_KEY);
      expect(readFileSync(scenario.target, 'utf8')).toBe(OUTSIDE_TEXT);
    } finally {
      expect(await client.killReportingStdoutProblems()).toEqual([]);
    }
  });
});
