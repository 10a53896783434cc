/**
 * Native messaging end to end (native-messaging.md): `vv-agent native-host install` into a temp
 * HOME, then the INSTALLED launcher started the way Chrome starts a host (the manifest's `path`,
 * the caller's origin as argument, length-prefixed frames on stdio) against the model server on
 * 127.0.0.1 and a real SQLite store. Every frame the host writes is checked against the 1 MiB rule.
 * Build first (`npm run build`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BACKEND,
  E2eSandbox,
  MODEL,
  describeMessage,
  isTurnCompleted,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
} from '../helpers/app-server-session';
import { DIST_MAIN } from '../helpers/jsonl-child';
import { assistantReply, bashReply, finishReply } from '../helpers/model-replies';
import { NativeMessagingChild } from '../helpers/native-messaging-child';
import { USAGE_LINE } from '../../src/cli/command-help';

jest.setTimeout(90_000);

const LIMIT = 1_048_576;
const EXTENSION_ID = 'knldjmfmopnpolahpmmgbagdohdnhkik';
const ORIGIN = `chrome-extension://${EXTENSION_ID}/`;

let sandbox: E2eSandbox;
let home: string;
let children: NativeMessagingChild[];

/** The environment a browser would pass on: the user's HOME, no XDG overrides. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, VV_AGENT_HOME: join(home, '.vv-agent') };
  delete env.XDG_CONFIG_HOME;
  delete env.XDG_DATA_HOME;
  return env;
}

function cli(args: string[]): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync(process.execPath, [DIST_MAIN, ...args], {
    cwd: sandbox.root,
    env: userEnv(),
    encoding: 'utf8',
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** `native-host install --browser chrome …` into the temp HOME; returns the manifest it wrote. */
function installChromeHost(extra: string[] = []): { launcher: string; manifestPath: string } {
  const result = cli([
    'native-host',
    'install',
    '--browser',
    'chrome',
    '--extension-id',
    EXTENSION_ID,
    '--settings',
    sandbox.settingsPath,
    '--backend',
    BACKEND,
    '--model',
    MODEL,
    '--store',
    sandbox.storePath(),
    ...extra,
  ]);
  expect(result).toMatchObject({ status: 0, stderr: '' });
  const launcher = join(home, '.local/share/vv-agent/native-host/com.vv_agent.app_server-chrome.sh');
  const manifestPath = join(home, '.config/google-chrome/NativeMessagingHosts/com.vv_agent.app_server.json');
  expect(result.stdout).toBe(`launcher ${launcher}\nmanifest ${manifestPath}\n`);
  return { launcher, manifestPath };
}

/** Starts the host named by the installed manifest, as Chrome does (Linux: the origin only). */
function launchAsChrome(manifestPath: string, origin = ORIGIN): NativeMessagingChild {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    path: string;
    allowed_origins: string[];
  };
  const child = new NativeMessagingChild({ program: manifest.path, args: [origin], env: userEnv() });
  children.push(child);
  return child;
}

async function connectedSession(): Promise<{ session: AppServerSession; host: NativeMessagingChild }> {
  const { manifestPath } = installChromeHost();
  const host = launchAsChrome(manifestPath);
  const session = sandbox.attach(host, { nativeMessaging: true });
  await session.initialize();
  return { session, host };
}

/** The 1 MiB rule, on every frame the host wrote; and stdout held whole frames only. */
function expectEveryFrameWithinLimit(host: NativeMessagingChild): void {
  expect(host.frameSizes.length).toBeGreaterThan(0);
  expect(host.frameSizes.filter((size) => size > LIMIT)).toEqual([]);
  expect(host.invalidLines).toEqual([]);
  expect(host.partialFrameBytes).toBe(0);
}

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-native-e2e-');
  home = join(sandbox.root, 'home');
  mkdirSync(home);
  children = [];
});

afterEach(async () => {
  await sandbox.dispose();
});

describe('the installed launcher, started as Chrome starts it', () => {
  it('runs initialize → thread/start → a turn with a bash approval answered → turn/completed', async () => {
    const { manifestPath } = installChromeHost();
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    expect(manifest).toEqual({
      name: 'com.vv_agent.app_server',
      description: 'vv-agent App Server',
      path: join(home, '.local/share/vv-agent/native-host/com.vv_agent.app_server-chrome.sh'),
      type: 'stdio',
      allowed_origins: [ORIGIN],
    });
    sandbox.model.enqueue(
      bashReply('echo native > native.txt', { content: ['Writing the file.'] }),
      finishReply('File written.'),
    );
    const host = launchAsChrome(manifestPath);
    const session = sandbox.attach(host, { nativeMessaging: true });

    const init = await session.call<{ userAgent: string; protocolVersion: string }>('initialize', {
      clientInfo: { name: 'browser-extension', version: '1.0.0' },
    });
    expect(init).toMatchObject({ userAgent: 'vv-agent-app-server', protocolVersion: 'v1' });
    session.send({ jsonrpc: '2.0', method: 'initialized' });
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'write native.txt' }],
    });

    const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m);
    expect(paramsOf(request)).toMatchObject({
      threadId,
      turnId,
      toolName: 'bash',
      arguments: { command: 'echo native > native.txt' },
    });
    session.answer(request.id, { decision: 'allow' });
    const traffic = await session.collectUntil(isTurnCompleted(threadId));

    const completed = traffic.at(-1) as JsonMessage;
    expect(paramsOf(completed)).toMatchObject({
      threadId,
      turnId,
      status: 'completed',
      finalOutput: 'File written.',
      completionReason: 'tool_finish',
    });
    expect(traffic.map(describeMessage)).toEqual(
      expect.arrayContaining([
        'approval/resolved',
        'item/completed(toolCall)',
        'thread/status/changed(idle)',
      ]),
    );
    expect(traffic.find((m) => m.method === 'approval/resolved')).toMatchObject({
      params: { requestId: request.id, decision: 'allow' },
    });
    expect(readFileSync(join(sandbox.workspace, 'native.txt'), 'utf8')).toBe('native\n');
    // The caller is logged on stderr; stdout carried frames only.
    expect(host.stderr).toContain(`native messaging caller: ${ORIGIN}`);

    // The browser closing the port closes stdin: EOF is shutdown, exit 0.
    expect(await session.close()).toEqual({ code: 0, signal: null });
    expectEveryFrameWithinLimit(host);
  });

  it.each([
    ['another extension', 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'],
    ['no caller at all', ''],
  ])(
    'refuses a caller not in the allow-list (%s): exit 2, the exact message, no frame',
    async (_label, other) => {
      const { manifestPath } = installChromeHost();
      const host = launchAsChrome(manifestPath, other);
      host.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'x' } } });
      expect(await host.waitExit()).toEqual({ code: 2, signal: null });
      expect(host.stderr.split('\n')).toContain(`native messaging caller not allowed: ${other}`);
      expect(host.frameSizes).toEqual([]);
      expect(host.partialFrameBytes).toBe(0);
    },
  );
});

describe('the 1 MiB outbound rule', () => {
  it('a thread/read over 1 MiB that shortening cannot fix gets -32603; with limit it succeeds', async () => {
    // One model reply with many calls of an unknown tool: many small items, each a failed toolCall.
    const calls = Array.from({ length: 3000 }, (_, index) => ({
      id: `call_${index}`,
      name: 'no_such_tool',
      arguments: { index },
    }));
    sandbox.model.enqueue(assistantReply(calls), finishReply('done'));
    const { session, host } = await connectedSession();
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'many items' }] });
    await session.collectUntil(isTurnCompleted(threadId), 60_000);

    const error = await session.failure('thread/read', { threadId });
    const size =
      /^message exceeds the native messaging limit \((\d+) bytes\); request less \(thread\/read limit, afterItemId\)$/.exec(
        error.message,
      );
    expect({ code: error.code, matches: size !== null }).toEqual({ code: -32603, matches: true });
    expect(Number(size?.[1])).toBeGreaterThan(LIMIT);
    expect(error.data).toBeUndefined();

    const page = await session.call<{ items: Array<{ itemId: string }>; truncated?: boolean }>(
      'thread/read',
      {
        threadId,
        limit: 500,
      },
    );
    expect(page.items).toHaveLength(500);
    expect(page.truncated).toBeUndefined();
    const next = await session.call<{ items: Array<{ itemId: string }> }>('thread/read', {
      threadId,
      limit: 500,
      afterItemId: page.items[499].itemId,
    });
    expect(next.items).toHaveLength(500);
    expect(await session.close()).toEqual({ code: 0, signal: null });
    expectEveryFrameWithinLimit(host);
  });

  it('notifications over the limit arrive truncated with truncated: true; the store keeps the whole text', async () => {
    const big = `${'0123456789abcdef'.repeat(96 * 1024)}`; // 1.5 MiB of assistant text
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_finish', name: 'task_finish', arguments: { message: big } }], {
        content: [big],
      }),
    );
    const { session, host } = await connectedSession();
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'say a lot' }] });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 60_000);

    const delta = paramsOf(traffic.find((m) => m.method === 'item/agentMessage/delta') as JsonMessage);
    expect(delta.truncated).toBe(true);
    expect(big.startsWith(String(delta.delta))).toBe(true);
    expect(String(delta.delta).length).toBeGreaterThan(100_000);
    const message = traffic.find(
      (m) => m.method === 'item/completed' && paramsOf(m).type === 'agentMessage',
    ) as JsonMessage;
    expect(paramsOf(message).truncated).toBe(true);
    expect(big.startsWith(String((paramsOf(message).payload as { text: string }).text))).toBe(true);
    const completed = paramsOf(traffic.at(-1) as JsonMessage);
    expect(completed).toMatchObject({ status: 'completed', truncated: true });
    expect(big.startsWith(String(completed.finalOutput))).toBe(true);
    // Small notifications are untouched.
    expect(
      paramsOf(traffic.find((m) => m.method === 'turn/started') as JsonMessage).truncated,
    ).toBeUndefined();

    const read = await session.call<{ truncated?: boolean }>('thread/read', { threadId });
    expect(read.truncated).toBe(true);
    expect(await session.close()).toEqual({ code: 0, signal: null });
    expectEveryFrameWithinLimit(host);
    expect(host.stderr).toMatch(
      /native messaging: item\/agentMessage\/delta of \d+ bytes exceeds 1048576 bytes; sent with shortened strings/,
    );

    // The stored data stays complete: the same store read over stdio JSONL has every byte.
    const stdio = sandbox.spawn();
    await stdio.initialize();
    const full = await stdio.call<{ items: Array<{ type: string; payload: { text?: string } }> }>(
      'thread/read',
      {
        threadId,
      },
    );
    expect(
      full.items.filter((item) => item.type === 'agentMessage').map((item) => item.payload.text),
    ).toContain(big);
  });
});

describe('native-host install | uninstall | status through the CLI', () => {
  it('installs idempotently, lists, and uninstalls, printing every path and writing nothing else', () => {
    const first = installChromeHost(['--approval-policy', 'never']);
    const again = installChromeHost(['--approval-policy', 'never']);
    expect(again).toEqual(first);
    const launcherText = readFileSync(first.launcher, 'utf8');
    expect(launcherText).toContain('--approval-policy never');
    expect(
      execFileSync('find', [home, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n').sort(),
    ).toEqual([first.launcher, first.manifestPath].sort());

    expect(cli(['native-host', 'status'])).toEqual({
      status: 0,
      stderr: '',
      stdout: `chrome com.vv_agent.app_server ${first.manifestPath}\n`,
    });
    expect(
      cli([
        'native-host',
        'install',
        '--browser',
        'chrome',
        '--extension-id',
        EXTENSION_ID,
        '--name',
        'Bad-Name',
        '--settings',
        sandbox.settingsPath,
        '--backend',
        BACKEND,
        '--model',
        MODEL,
      ]),
    ).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'invalid --name: Bad-Name (browsers accept lower-case letters, digits, "_" and "." only, dot-separated)\n' +
        `${USAGE_LINE}\n`,
    });
    expect(cli(['native-host', 'uninstall', '--browser', 'chrome'])).toEqual({
      status: 0,
      stderr: '',
      stdout: `removed ${first.manifestPath}\nremoved ${first.launcher}\n`,
    });
    expect(existsSync(first.launcher) || existsSync(first.manifestPath)).toBe(false);
    expect(cli(['native-host', 'status'])).toEqual({ status: 0, stderr: '', stdout: '' });
  });
});
