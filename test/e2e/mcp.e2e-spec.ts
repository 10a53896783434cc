/**
 * MCP tool servers end to end (mcp.md): the built CLI over stdio with a real sqlite store, the fake
 * model server on 127.0.0.1, and REAL MCP servers from npm — server-everything over stdio and over
 * streamable HTTP, server-filesystem. Build first (`npm run build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  E2eSandbox,
  eventually,
  isTurnCompleted,
  lastItemStates,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
  type SpawnOptions,
} from '../helpers/app-server-session';
import sqlite3 from 'sqlite3';
import { JsonlChild } from '../helpers/jsonl-child';
import {
  Agent,
  FixedModelProvider,
  Runner,
  createOpenAiCompatibleClient,
  parseLlmSettingsDocument,
  resolveModelEndpoint,
  startInProcessAppServer,
  type AppServerHost,
} from '../../dist';
import { fakeSettingsDocument } from '../helpers/fake-openai-server';
import { InProcessConnection } from '../helpers/in-process-connection';
import { AppServerClient } from '../../src/client';
import { assistantReply, finishReply, requestMessages } from '../helpers/model-replies';

jest.setTimeout(90_000);

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const textInput = (text: string) => [{ type: 'text', text }];

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-mcp-e2e-');
});

afterEach(async () => {
  await sandbox.dispose();
});

function writeMcpConfig(servers: Record<string, unknown>): string {
  const path = join(sandbox.root, 'mcp.json');
  writeFileSync(path, JSON.stringify({ mcpServers: servers }));
  return path;
}

async function ready(options: SpawnOptions): Promise<AppServerSession> {
  const session = sandbox.spawn(options);
  await session.initialize();
  return session;
}

/** Pids of live processes whose environment holds `NAME=value` (the MCP servers we configured). */
function processesWithEnv(entry: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The `role: "tool"` message contents of one recorded model request. */
function toolResults(index: number): string[] {
  return requestMessages(sandbox.model.requests[index].body)
    .filter((message) => message.role === 'tool')
    .map((message) => String(message.content));
}

function toolNames(index: number): string[] {
  const tools = (sandbox.model.requests[index].body?.tools ?? []) as Array<{ function: { name: string } }>;
  return tools.map((tool) => tool.function.name);
}

function toolItems(messages: JsonMessage[]): Array<Record<string, unknown>> {
  return lastItemStates(messages).filter((item) => item.type === 'toolCall');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('MCP over stdio (server-everything) from --mcp-config', () => {
  it('lists, starts lazily, calls echo and get-env, keeps secrets out, and leaves no child after SIGTERM', async () => {
    const tag = `tag-${process.pid}-${Date.now()}`;
    const config = writeMcpConfig({
      every: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { E2E_TAG: '${MCP_E2E_TAG}' } },
    });
    const session = await ready({
      args: ['--mcp-config', config],
      env: { MCP_E2E_TAG: tag, OPENAI_API_KEY: 'sk-env-secret-123' },
    });

    const before = await session.call<{ servers: Array<Record<string, unknown>> }>('mcpServer/list', {});
    expect(before.servers).toEqual([
      { name: 'every', source: 'config', status: 'notStarted', transport: 'stdio', tools: [] },
    ]);
    expect(processesWithEnv(`E2E_TAG=${tag}`)).toEqual([]);

    sandbox.model.enqueue(
      assistantReply([{ id: 'call_echo', name: 'mcp__every__echo', arguments: { message: 'hello mcp' } }]),
      assistantReply([{ id: 'call_env', name: 'mcp__every__get-env', arguments: {} }]),
      finishReply('done'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: textInput('use mcp') });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 60_000);
    expect(paramsOf(traffic[traffic.length - 1])).toEqual(expect.objectContaining({ status: 'completed' }));

    // The model saw the MCP tools and got the echo result in its next request.
    expect(toolNames(0)).toEqual(expect.arrayContaining(['mcp__every__echo', 'mcp__every__get-env']));
    expect(toolResults(1).join('\n')).toContain('hello mcp');
    const [echo, env] = toolItems(traffic);
    expect(echo).toMatchObject({
      status: 'completed',
      payload: { toolName: 'mcp__every__echo', mcp: { server: 'every', tool: 'echo' } },
    });
    expect(env.payload).toMatchObject({ mcp: { server: 'every', tool: 'get-env' } });

    // get-env prints the child's environment: `${VAR}` expanded, no App Server secret, no API key.
    const childEnv = toolResults(2).join('\n');
    expect(childEnv).toContain(tag);
    expect(childEnv).not.toContain('sk-env-secret-123');
    expect(childEnv).not.toContain('OPENAI_API_KEY');
    expect(childEnv).not.toContain('sk-test');
    expect(childEnv).not.toContain('MCP_E2E_TAG');

    const after = await session.call<{ servers: Array<Record<string, unknown>> }>('mcpServer/list', {});
    expect(after.servers[0]).toMatchObject({ name: 'every', status: 'ready', transport: 'stdio' });
    expect(after.servers[0].tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'echo', exposedName: 'mcp__every__echo' })]),
    );
    expect(processesWithEnv(`E2E_TAG=${tag}`).length).toBeGreaterThan(0);

    session.child.process.kill('SIGTERM');
    const exit = await session.child.waitExit(15_000);
    expect(exit.code).toBe(0);
    expect(processesWithEnv(`E2E_TAG=${tag}`)).toEqual([]);
    expect(session.child.stderr).toMatch(/\[mcp:every\] /);
  });

  it('a server that cannot start warns and the turn completes with the other tools', async () => {
    const config = writeMcpConfig({ bad: { command: '/nonexistent/mcp-server', startupTimeoutSec: 10 } });
    const session = await ready({ args: ['--mcp-config', config] });
    sandbox.model.enqueue(finishReply('done without mcp'));
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('hi'),
    });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 30_000);
    const warning = traffic.find((m) => m.method === 'error/warning');
    expect(paramsOf(warning!)).toEqual({
      threadId,
      turnId,
      code: 'mcp_server_unavailable',
      message: expect.stringMatching(/^MCP server bad failed to start: /),
    });
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
      status: 'completed',
      finalOutput: 'done without mcp',
    });
    expect(toolNames(0)).toContain('task_finish');
    expect(toolNames(0).some((name) => name.startsWith('mcp__'))).toBe(false);

    const list = await session.call<{ servers: Array<Record<string, unknown>> }>('mcpServer/list', {});
    expect(list.servers[0]).toMatchObject({ name: 'bad', status: 'failed', error: expect.any(String) });
  });

  it('a bad --mcp-config fails at startup with exit 2 and the exact message', async () => {
    const config = writeMcpConfig({ every: { command: 'x', args: ['${VV_MCP_E2E_UNSET}'] } });
    const { args, cwd, env } = sandbox.serverCommand({ args: ['--mcp-config', config] });
    delete env.VV_MCP_E2E_UNSET;
    const child = JsonlChild.spawnNode(args, { cwd, env });
    const exit = await child.waitExit(15_000);
    expect(exit.code).toBe(2);
    expect(child.stderr).toContain('--mcp-config: environment variable VV_MCP_E2E_UNSET is not set');
    expect(child.received).toEqual([]);
  });

  // Issue #45 item 6: an invalid member value is an invalid file (docs/spec/mcp.md §1), not a default.
  it.each([
    [{ approval: 'sometimes' }, 'mcpServers.every.approval must be "default", "always" or "never"'],
    [{ startupTimeoutSec: 0 }, 'mcpServers.every.startupTimeoutSec must be a positive number'],
    [{ enabledTools: 'echo' }, 'mcpServers.every.enabledTools must be an array of strings'],
  ])('an invalid member %j exits 2 with --mcp-config: <cause>', async (member, cause) => {
    const config = writeMcpConfig({
      every: { command: process.execPath, args: [EVERYTHING, 'stdio'], ...member },
    });
    const { args, cwd, env } = sandbox.serverCommand({ args: ['--mcp-config', config] });
    const child = JsonlChild.spawnNode(args, { cwd, env });
    const exit = await child.waitExit(15_000);
    expect(exit.code).toBe(2);
    expect(child.stderr.split('\n')[0]).toBe(`--mcp-config: ${cause}`);
    expect(child.received).toEqual([]);
  });
});

// Issue #45 item 7: docs/spec/mcp.md §2 names everything a stdio MCP server inherits.
describe('the environment of a stdio MCP server (a real SDK McpServer that reports it)', () => {
  const ENV_REPORT = join(__dirname, '..', 'fixtures', 'mcp', 'env-report-server.mjs');
  const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'];

  it('is the listed variables plus its own env, nothing of the App Server; its whole tree ends with the server', async () => {
    const tag = `env-${process.pid}-${Date.now()}`;
    const config = writeMcpConfig({
      envs: { command: process.execPath, args: [ENV_REPORT], env: { E2E_TAG: tag } },
    });
    const serverEnv = {
      // As if the App Server itself ran inside an agent's bash call, with variables of its own.
      VV_BASH_CALL_MARKER: 'outer-bash-call',
      VV_E2E_SERVER_ONLY: 'server-only-value',
      LANG: 'C.UTF-8',
      TMPDIR: sandbox.root,
    };
    const session = await ready({ args: ['--mcp-config', config], env: serverEnv });
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_env', name: 'mcp__envs__environment', arguments: {} }]),
      assistantReply([{ id: 'call_spawn', name: 'mcp__envs__spawn-children', arguments: {} }]),
      finishReply('done'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: textInput('report') });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 60_000);
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ status: 'completed' });

    const childEnv = JSON.parse(toolResults(1)[0]) as Record<string, string>;
    const { env } = sandbox.serverCommand({ env: serverEnv });
    const expected = Object.fromEntries(
      INHERITED.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]),
    );
    expect(childEnv).toEqual({ ...expected, E2E_TAG: tag });
    expect(childEnv.LANG).toBe('C.UTF-8');

    // The server and both of its children carry E2E_TAG; none survives the App Server's SIGTERM.
    const children = JSON.parse(toolResults(2)[1]) as number[];
    expect(children).toHaveLength(2);
    await eventually(async () => (processesWithEnv(`E2E_TAG=${tag}`).length === 3 ? true : undefined));
    session.child.process.kill('SIGTERM');
    expect((await session.child.waitExit(15_000)).code).toBe(0);
    expect(processesWithEnv(`E2E_TAG=${tag}`)).toEqual([]);
  });
});

describe('thread-level servers (server-filesystem)', () => {
  it('deny under on-request: write_file is never called; secrets masked; restart keeps the servers', async () => {
    const session = await ready({});
    const mcpServers = {
      fs: { command: process.execPath, args: [FILESYSTEM, sandbox.workspace], env: { FS_TOKEN: 's3cret' } },
    };
    const started = await session.startThread({ cwd: sandbox.workspace, mcpServers });
    const { threadId } = started;
    expect((started as unknown as { mcpServers: unknown }).mcpServers).toEqual({
      fs: { command: process.execPath, args: [FILESYSTEM, sandbox.workspace], env: { FS_TOKEN: '***' } },
    });

    const target = join(sandbox.workspace, 'denied.txt');
    sandbox.model.enqueue(
      assistantReply([
        { id: 'call_write', name: 'mcp__fs__write_file', arguments: { path: target, content: 'x' } },
      ]),
      finishReply('gave up'),
    );
    await session.call('turn/start', { threadId, input: textInput('write') });
    const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m, 60_000);
    expect(paramsOf(request)).toMatchObject({
      toolName: 'mcp__fs__write_file',
      preview: expect.stringMatching(/^fs: write_file \{/),
    });
    session.answer(request.id, { decision: 'deny' });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 30_000);
    expect(existsSync(target)).toBe(false);
    const write = toolItems(traffic).find(
      (item) => (item.payload as Record<string, unknown>).toolName === 'mcp__fs__write_file',
    );
    expect(write?.payload).toMatchObject({ mcp: { server: 'fs', tool: 'write_file' } });

    const read = await session.call<{ thread: Record<string, unknown> }>('thread/read', { threadId });
    expect(read.thread.mcpServers).toEqual({
      fs: { command: process.execPath, args: [FILESYSTEM, sandbox.workspace], env: { FS_TOKEN: '***' } },
    });
    const page = await session.call<{ threads: Array<Record<string, unknown>> }>('thread/list', {});
    expect(JSON.stringify(page)).not.toContain('s3cret');

    expect((await session.close()).code).toBe(0);
    const again = await ready({});
    const list = await again.call<{ servers: Array<Record<string, unknown>> }>('mcpServer/list', {
      threadId,
    });
    expect(list.servers).toEqual([
      { name: 'fs', source: 'thread', status: 'notStarted', transport: 'stdio', tools: [] },
    ]);
    expect(await again.failure('mcpServer/list', { threadId: 'thread_unknown' })).toMatchObject({
      code: -32020,
    });
  });

  it('rejects bad mcpServers with -32602 and member paths', async () => {
    const session = await ready({});
    const error = await session.failure('thread/start', {
      mcpServers: { fs: { args: 'x' }, 'bad name': {}, web: { type: 'http', headers: { A: 1 } } },
    });
    expect(error.code).toBe(-32602);
    expect((error.data as { errors: unknown[] }).errors).toEqual([
      { path: '/mcpServers/fs/command', message: 'is required' },
      { path: '/mcpServers/fs/args', message: 'must be an array' },
      { path: '/mcpServers/bad name', message: expect.stringContaining('server name') },
      { path: '/mcpServers/web/url', message: 'is required' },
      { path: '/mcpServers/web/headers/A', message: 'must be a string' },
    ]);
  });
});

describe('MCP over streamable HTTP (server-everything on 127.0.0.1)', () => {
  let httpServer: ChildProcess | undefined;

  afterEach(() => {
    httpServer?.kill('SIGKILL');
  });

  it('calls get-sum and returns the result to the model', async () => {
    const port = await freePort();
    httpServer = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let text = '';
      httpServer!.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('listening')) resolve();
      });
      httpServer!.once('exit', () => reject(new Error(`http server exited: ${text}`)));
    });

    const session = await ready({});
    const { threadId } = await session.startThread({
      cwd: sandbox.workspace,
      mcpServers: { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } },
    });
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_sum', name: 'mcp__web__get-sum', arguments: { a: 20, b: 22 } }]),
      finishReply('summed'),
    );
    await session.call('turn/start', { threadId, input: textInput('sum') });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 60_000);
    expect(paramsOf(traffic[traffic.length - 1])).toEqual(expect.objectContaining({ status: 'completed' }));
    expect(toolResults(1).join('\n')).toContain('42');
    expect(toolItems(traffic)[0]).toMatchObject({
      status: 'completed',
      payload: { mcp: { server: 'web', tool: 'get-sum' } },
    });
    const list = await session.call<{ servers: Array<Record<string, unknown>> }>('mcpServer/list', {
      threadId,
    });
    expect(list.servers[0]).toMatchObject({
      name: 'web',
      source: 'thread',
      status: 'ready',
      transport: 'http',
    });
  });
});

describe('MCP failures during calls (server-everything over stdio)', () => {
  const isToolStarted = (m: JsonMessage): boolean =>
    m.method === 'item/started' && paramsOf(m).type === 'toolCall';

  it('a server killed mid-call fails the call with mcp_server_unavailable; the next turn restarts it', async () => {
    const tag = `kill-${process.pid}-${Date.now()}`;
    const config = writeMcpConfig({
      every: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { E2E_TAG: tag } },
    });
    const session = await ready({ args: ['--mcp-config', config] });
    sandbox.model.enqueue(
      assistantReply([
        {
          id: 'call_long',
          name: 'mcp__every__trigger-long-running-operation',
          arguments: { duration: 30, steps: 30 },
        },
      ]),
      finishReply('server died'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: textInput('long') });
    await session.waitFor(isToolStarted, 60_000);
    const first = processesWithEnv(`E2E_TAG=${tag}`);
    expect(first.length).toBeGreaterThan(0);
    for (const pid of first) process.kill(pid, 'SIGKILL');
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 30_000);
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ status: 'completed' });
    expect(toolItems(traffic)[0]).toMatchObject({
      status: 'failed',
      payload: {
        errorCode: 'mcp_server_unavailable',
        mcp: { server: 'every', tool: 'trigger-long-running-operation' },
      },
    });

    sandbox.model.enqueue(
      assistantReply([{ id: 'call_echo2', name: 'mcp__every__echo', arguments: { message: 'back again' } }]),
      finishReply('restarted'),
    );
    await session.call('turn/start', { threadId, input: textInput('again') });
    const second = await session.collectUntil(isTurnCompleted(threadId), 60_000);
    expect(paramsOf(second[second.length - 1])).toMatchObject({ status: 'completed' });
    expect(toolResults(3).join('\n')).toContain('back again');
    const restarted = processesWithEnv(`E2E_TAG=${tag}`);
    expect(restarted.length).toBeGreaterThan(0);
    expect(restarted.some((pid) => first.includes(pid))).toBe(false);
  });

  it('turn/interrupt cancels an MCP call in flight', async () => {
    const session = await ready({});
    const { threadId } = await session.startThread({
      cwd: sandbox.workspace,
      mcpServers: { every: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    });
    sandbox.model.enqueue(
      assistantReply([
        {
          id: 'call_long',
          name: 'mcp__every__trigger-long-running-operation',
          arguments: { duration: 60, steps: 60 },
        },
      ]),
    );
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('long'),
    });
    await session.waitFor(isToolStarted, 60_000);
    const startedAt = Date.now();
    await session.call('turn/interrupt', { threadId, expectedTurnId: turnId });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 30_000);
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ status: 'interrupted' });
    // Well before the 60 s the operation would take: the call was cancelled, not waited for.
    expect(Date.now() - startedAt).toBeLessThan(30_000);
    expect(toolItems(traffic)[0].status).not.toBe('completed');
  });

  it('a call over toolTimeoutSec fails with mcp_tool_timeout', async () => {
    const session = await ready({});
    const { threadId } = await session.startThread({
      cwd: sandbox.workspace,
      mcpServers: { every: { command: process.execPath, args: [EVERYTHING, 'stdio'], toolTimeoutSec: 1 } },
    });
    sandbox.model.enqueue(
      assistantReply([
        {
          id: 'call_slow',
          name: 'mcp__every__trigger-long-running-operation',
          arguments: { duration: 10, steps: 10 },
        },
      ]),
      finishReply('too slow'),
    );
    await session.call('turn/start', { threadId, input: textInput('slow') });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 60_000);
    expect(toolItems(traffic)[0]).toMatchObject({
      status: 'failed',
      payload: { errorCode: 'mcp_tool_timeout' },
    });
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ status: 'completed' });
  });
});

describe('MCP approval rules', () => {
  it('untrusted asks even for a readOnlyHint tool; a server "approval": "never" overrides on-request', async () => {
    const untrusted = await ready({ args: ['--approval-policy', 'untrusted'] });
    const every = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
    const { threadId } = await untrusted.startThread({ cwd: sandbox.workspace, mcpServers: { every } });
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_echo', name: 'mcp__every__echo', arguments: { message: 'asked' } }]),
      finishReply('ok'),
    );
    await untrusted.call('turn/start', { threadId, input: textInput('echo') });
    const request = await untrusted.waitFor((m) => m.method === 'approval/request' && 'id' in m, 60_000);
    expect(paramsOf(request)).toMatchObject({
      toolName: 'mcp__every__echo',
      preview: 'every: echo {"message":"asked"}',
    });
    untrusted.answer(request.id, { decision: 'allow' });
    await untrusted.collectUntil(isTurnCompleted(threadId), 30_000);
    expect(toolResults(1).join('\n')).toContain('asked');

    const onRequest = await ready({});
    const target = join(sandbox.workspace, 'allowed.txt');
    const fs = { command: process.execPath, args: [FILESYSTEM, sandbox.workspace], approval: 'never' };
    const other = await onRequest.startThread({ cwd: sandbox.workspace, mcpServers: { fs } });
    sandbox.model.enqueue(
      assistantReply([
        { id: 'call_w', name: 'mcp__fs__write_file', arguments: { path: target, content: 'written' } },
      ]),
      finishReply('wrote'),
    );
    await onRequest.call('turn/start', { threadId: other.threadId, input: textInput('write') });
    const traffic = await onRequest.collectUntil(isTurnCompleted(other.threadId), 60_000);
    expect(traffic.some((m) => m.method === 'approval/request')).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('written');
  });

  it('never runs a writing tool without asking; a server "approval": "always" still asks, and deny leaves no file', async () => {
    const session = await ready({ args: ['--approval-policy', 'never'] });
    const free = join(sandbox.workspace, 'free.txt');
    const guarded = join(sandbox.workspace, 'guarded.txt');
    const fs = { command: process.execPath, args: [FILESYSTEM, sandbox.workspace] };
    const plain = await session.startThread({ cwd: sandbox.workspace, mcpServers: { fs } });
    sandbox.model.enqueue(
      assistantReply([
        { id: 'call_w1', name: 'mcp__fs__write_file', arguments: { path: free, content: 'free' } },
      ]),
      finishReply('wrote'),
    );
    await session.call('turn/start', { threadId: plain.threadId, input: textInput('write') });
    const first = await session.collectUntil(isTurnCompleted(plain.threadId), 60_000);
    expect(first.some((m) => m.method === 'approval/request')).toBe(false);
    expect(readFileSync(free, 'utf8')).toBe('free');

    const strict = await session.startThread({
      cwd: sandbox.workspace,
      mcpServers: { fs: { ...fs, approval: 'always' } },
    });
    sandbox.model.enqueue(
      assistantReply([
        { id: 'call_w2', name: 'mcp__fs__write_file', arguments: { path: guarded, content: 'guarded' } },
      ]),
      finishReply('asked'),
    );
    await session.call('turn/start', { threadId: strict.threadId, input: textInput('write') });
    const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m, 60_000);
    expect(paramsOf(request)).toMatchObject({ threadId: strict.threadId, toolName: 'mcp__fs__write_file' });
    session.answer(request.id, { decision: 'deny' });
    const second = await session.collectUntil(isTurnCompleted(strict.threadId), 60_000);
    expect(paramsOf(second[second.length - 1])).toMatchObject({ status: 'completed' });
    expect(existsSync(guarded)).toBe(false);
  });
});

describe('host-provided servers (AppServerHost.resolveAgent)', () => {
  it('an agent listing mcpServers gets their tools; the server closes with the App Server', async () => {
    const tag = `host-${process.pid}-${Date.now()}`;
    const settings = parseLlmSettingsDocument(
      fakeSettingsDocument({
        endpoints: [{ id: 'fake', apiBase: sandbox.model.baseUrl }],
        backend: 'local',
        model: 'test-model',
      }),
    );
    const resolved = resolveModelEndpoint(settings, 'local', 'test-model');
    const client = createOpenAiCompatibleClient(settings, resolved, { timeoutSeconds: 30 });
    const runner = new Runner({ modelProvider: new FixedModelProvider(resolved, client) });
    const host: AppServerHost = {
      resolveAgent: async () =>
        Agent.create({
          name: 'tenant',
          instructions: 'Use the tenant tools.',
          model: { type: 'resolved', config: resolved },
          mcpServers: {
            every: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { E2E_TAG: tag } },
          },
        }),
      buildRunConfig: async () => ({ workspace: sandbox.workspace, maxCycles: 5 }),
      listModels: async () => ({ models: [] }),
    };
    const server = await startInProcessAppServer({
      runner,
      host,
      store: { path: join(sandbox.root, 'host.sqlite') },
    });
    let closed = false;
    try {
      const connection = new InProcessConnection(server.core);
      await connection.initialize();
      const { threadId } = await connection.call<{ threadId: string }>('thread/start', {});
      sandbox.model.enqueue(
        assistantReply([{ id: 'call_echo', name: 'mcp__every__echo', arguments: { message: 'from host' } }]),
        finishReply('done'),
      );
      await connection.call('turn/start', { threadId, input: textInput('go') });
      await connection.waitFor((m) => m.method === 'turn/completed');
      expect(toolResults(1).join('\n')).toContain('from host');
      const list = await connection.call<{ servers: Array<Record<string, unknown>> }>('mcpServer/list', {
        threadId,
      });
      expect(list.servers).toEqual([
        expect.objectContaining({ name: 'every', source: 'host', status: 'ready' }),
      ]);
      expect(processesWithEnv(`E2E_TAG=${tag}`).length).toBeGreaterThan(0);
      await server.close();
      closed = true;
      expect(processesWithEnv(`E2E_TAG=${tag}`)).toEqual([]);
    } finally {
      if (!closed) await server.close();
    }
  });
});

describe('tools/list_changed within a running turn (a real SDK McpServer that adds a tool)', () => {
  const UNLOCKING = join(__dirname, '..', 'fixtures', 'mcp', 'tool-unlocking-server.mjs');
  const SERVER = 'unlocking-server';
  // `mcp__unlocking-server__<this>` is 66 characters: its exposed name takes the hash form.
  const REVEAL = 'reveal-the-secret-that-was-locked-until-now';

  /** docs/spec/mcp.md §3, computed here from the rule rather than by the server's code. */
  function hashedName(full: string): string {
    const digest = createHash('sha256').update(full, 'utf8').digest('hex').slice(0, 8);
    return `${full.slice(0, 55)}_${digest}`;
  }

  it('the model sees the new tool at its next call in the same turn and can call it; the typed client lists it', async () => {
    const config = writeMcpConfig({ [SERVER]: { command: process.execPath, args: [UNLOCKING] } });
    const unlock = `mcp__${SERVER}__unlock`;
    const secret = hashedName(`mcp__${SERVER}__${REVEAL}`);
    expect(secret.length).toBe(64);

    const stderr: string[] = [];
    const client = AppServerClient.spawn({
      command: process.execPath,
      ...sandbox.serverCommand({ args: ['--mcp-config', config] }),
      onStderr: (line) => stderr.push(line),
    });
    try {
      await client.initialize({ name: 'mcp-e2e', version: '1.0.0' });
      sandbox.model.enqueue(
        assistantReply([{ id: 'call_unlock', name: unlock, arguments: {} }]),
        assistantReply([{ id: 'call_secret', name: secret, arguments: {} }]),
        finishReply('found it'),
      );
      const { threadId } = await client.startThread({ cwd: sandbox.workspace });
      await client.startTurn({ threadId, input: textInput('find the secret') });
      const done = await client.waitFor('turn/completed', {
        timeoutMs: 60_000,
      });
      expect(done.params).toMatchObject({ status: 'completed', finalOutput: 'found it' });

      // First request: only `unlock`; after the call announced the change, the next request of the
      // SAME turn carries the new tool (hash-form name), and its result reaches the model.
      expect(toolNames(0)).toContain(unlock);
      expect(toolNames(0)).not.toContain(secret);
      expect(toolNames(1)).toEqual(expect.arrayContaining([unlock, secret]));
      expect(toolResults(2).join('\n')).toContain('the secret is 42');

      const { servers } = await client.listMcpServers({ threadId });
      expect(servers).toEqual([
        expect.objectContaining({
          name: SERVER,
          source: 'config',
          status: 'ready',
          transport: 'stdio',
          tools: [
            { name: 'unlock', exposedName: unlock, description: 'Unlocks the secret-revealing tool.' },
            { name: REVEAL, exposedName: secret, description: 'Reveals the secret.' },
          ],
        }),
      ]);
    } catch (error) {
      throw new Error(`${String(error)}\nserver stderr:\n${stderr.join('\n')}`);
    } finally {
      await client.close();
    }
  });
});

describe('an MCP server that is slow to start (a real SDK McpServer that waits before answering)', () => {
  const SLOW = join(__dirname, '..', 'fixtures', 'mcp', 'slow-start-server.mjs');
  /** Far longer than the test waits: the server is still starting at every step below. */
  const START_DELAY_MS = 60_000;

  function slowConfig(tag: string): string {
    return writeMcpConfig({
      slow: {
        command: process.execPath,
        args: [SLOW, String(START_DELAY_MS)],
        env: { E2E_TAG: tag },
        startupTimeoutSec: 120,
      },
    });
  }

  /** A server whose MCP server is still starting, and a turn that turn/start answered meanwhile. */
  async function turnWaitingForSlowServer(): Promise<{
    tag: string;
    session: AppServerSession;
    threadId: string;
    turnId: string;
  }> {
    const tag = `slow-${process.pid}-${Date.now()}`;
    const session = await ready({ args: ['--mcp-config', slowConfig(tag)] });
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('hi'),
    });
    await session.collectUntil((m) => m.method === 'turn/started');
    return { tag, session, threadId, turnId };
  }

  it('turn/start answers while the server starts, and turn/interrupt ends the turn before any model call', async () => {
    const { tag, session, threadId, turnId } = await turnWaitingForSlowServer();
    // The run's first cycle spawns the server, concurrently with turn/started going out.
    await eventually(async () => (processesWithEnv(`E2E_TAG=${tag}`).length > 0 ? true : undefined));

    expect(await session.call('turn/interrupt', { threadId, expectedTurnId: turnId })).toEqual({
      threadId,
      turnId,
      cancelled: true,
    });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 15_000);
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
      turnId,
      status: 'interrupted',
      completionReason: 'cancelled',
    });
    expect(sandbox.model.requests).toHaveLength(0);
    // The server goes on starting for later turns; the App Server ends it at shutdown.
    session.child.process.kill('SIGTERM');
    expect(await session.child.waitExit(15_000)).toEqual({ code: 0, signal: null });
    expect(processesWithEnv(`E2E_TAG=${tag}`)).toEqual([]);
  });

  it('SIGTERM while the server starts: exit 0 within the 5 s bound, the turn stored interrupted, no MCP process left', async () => {
    const { tag, session, threadId, turnId } = await turnWaitingForSlowServer();
    const signalledAt = Date.now();
    session.child.process.kill('SIGTERM');
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 10_000);
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
      turnId,
      status: 'interrupted',
      error: 'server shutting down',
    });
    expect(await session.child.waitExit(15_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(6_000);
    expect(sandbox.model.requests).toHaveLength(0);
    expect(processesWithEnv(`E2E_TAG=${tag}`)).toEqual([]);

    const stored = await storedTurn(sandbox.storePath(), turnId);
    expect(stored).toEqual({ status: 'interrupted', error: 'server shutting down' });
  });
});

/** A turn's status and result error as the store file holds them (read with plain sqlite3). */
async function storedTurn(path: string, turnId: string): Promise<{ status: string; error: unknown }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const handle = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (error) =>
      error ? reject(error) : resolve(handle),
    );
  });
  try {
    const row = await new Promise<{ status: string; result_json: string }>((resolve, reject) =>
      db.get(`SELECT "status", "result_json" FROM "turns" WHERE "turn_id" = ?`, [turnId], (error, found) =>
        error ? reject(error) : resolve(found as { status: string; result_json: string }),
      ),
    );
    return { status: row.status, error: (JSON.parse(row.result_json) as { error?: unknown }).error };
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}
