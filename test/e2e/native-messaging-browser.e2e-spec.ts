/**
 * A real browser (docs/spec/native-messaging.md §3): Debian's `chromium` package, headless, loads the unpacked
 * test extension (test/fixtures/native-messaging-extension) whose service worker calls
 * `chrome.runtime.connectNative`. The host is installed with `vv-agent native-host install --browser
 * chromium --user-data-dir <profile>` (Chromium reads `<user-data-dir>/NativeMessagingHosts` for a
 * profile outside the default one); Chromium itself starts the launcher. The test calls the service
 * worker's `runTurn` through the DevTools protocol (chrome-remote-interface) and reads its result:
 * one turn against the model server on 127.0.0.1 with a bash approval the extension answers.
 *
 * Needs `/usr/bin/chromium` (`.ci/run` installs it when missing; override with CHROMIUM_BIN) and
 * `npm run build`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import CDP from 'chrome-remote-interface';
import { BACKEND, E2eSandbox, MODEL, eventually } from '../helpers/app-server-session';
import { DIST_MAIN } from '../helpers/jsonl-child';
import { bashReply, finishReply } from '../helpers/model-replies';
import { stopProcessGroup } from '../helpers/process-group';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const EXTENSION_DIR = resolve(__dirname, '../fixtures/native-messaging-extension');

/** Chromium's id of an extension with a `key`: SHA-256 of the public key, first 32 hex digits as a–p. */
function extensionIdOf(manifestKey: string): string {
  const hex = createHash('sha256').update(Buffer.from(manifestKey, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

interface TurnSummary {
  threadId: string;
  status: string;
  finalOutput: string;
  completionReason: string;
  approvals: Array<{ toolName: string; arguments: Record<string, unknown> }>;
  methods: string[];
}

let sandbox: E2eSandbox;
let browser: ChildProcess | null = null;
let browserLog = '';

beforeEach(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: install Debian's chromium package (apt-get install -y chromium)`);
  }
  sandbox = await E2eSandbox.create('vv-native-browser-');
});

afterEach(async () => {
  // Chromium was started in its own process group: the browser and its helpers (zygote, renderers,
  // the native host) are all stopped.
  if (browser !== null) await stopProcessGroup(browser);
  browser = null;
  await sandbox.dispose();
});

it('headless Chromium runs one turn through chrome.runtime.connectNative and answers its approval', async () => {
  const manifest = JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as { key: string };
  const extensionId = extensionIdOf(manifest.key);
  const home = join(sandbox.root, 'home');
  const profile = join(sandbox.root, 'chromium-profile');
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.XDG_CONFIG_HOME;
  delete env.XDG_DATA_HOME;

  const install = spawnSync(
    process.execPath,
    [
      DIST_MAIN,
      'native-host',
      'install',
      '--browser',
      'chromium',
      '--extension-id',
      extensionId,
      '--user-data-dir',
      profile,
      '--settings',
      sandbox.settingsPath,
      '--backend',
      BACKEND,
      '--model',
      MODEL,
      '--store',
      sandbox.storePath(),
    ],
    { env, encoding: 'utf8' },
  );
  const hostManifest = join(profile, 'NativeMessagingHosts', 'com.vv_agent.app_server.json');
  expect({ status: install.status, stderr: install.stderr }).toEqual({ status: 0, stderr: '' });
  expect(install.stdout).toContain(`manifest ${hostManifest}\n`);

  sandbox.model.enqueue(
    bashReply('echo from-the-browser > browser.txt', { content: ['Writing browser.txt.'] }),
    finishReply('Written from the browser.'),
  );

  browser = spawn(
    CHROMIUM,
    [
      '--headless=new',
      // Root (CI) cannot use Chromium's sandbox.
      '--no-sandbox',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      `--load-extension=${EXTENSION_DIR}`,
      `--disable-extensions-except=${EXTENSION_DIR}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      'about:blank',
    ],
    { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  browser.stderr?.setEncoding('utf8');
  browser.stderr?.on('data', (chunk: string) => (browserLog = `${browserLog}${chunk}`.slice(-20_000)));

  // Chromium writes the DevTools port it picked into the profile once it listens.
  const portFile = join(profile, 'DevToolsActivePort');
  const port = await eventually(async () => {
    if (browser?.exitCode !== null) throw new Error(`chromium exited early:\n${browserLog}`);
    if (!existsSync(portFile)) return undefined;
    const first = readFileSync(portFile, 'utf8').split('\n')[0];
    return /^\d+$/.test(first) ? Number(first) : undefined;
  }, 20_000);
  const workerUrl = `chrome-extension://${extensionId}/service-worker.js`;
  const worker = await eventually(async () => {
    const targets = await CDP.List({ port });
    return targets.find((target) => target.type === 'service_worker' && target.url === workerUrl);
  }, 20_000).catch((error: Error) => {
    throw new Error(
      `the extension's service worker did not start (${error.message}); chromium stderr:\n${browserLog}`,
    );
  });

  const client = await CDP({ port, target: worker });
  let summary: TurnSummary;
  try {
    // The target is listed as soon as the worker starts, possibly before its script has run.
    await eventually(async () => {
      const probe = await client.Runtime.evaluate({
        expression: "typeof runTurn === 'function'",
        returnByValue: true,
      });
      return probe.result.value === true ? true : undefined;
    }, 10_000);
    const evaluation = await client.Runtime.evaluate({
      expression: `runTurn(${JSON.stringify({ cwd: sandbox.workspace, text: 'write browser.txt' })})`,
      awaitPromise: true,
      returnByValue: true,
      timeout: 40_000,
    });
    if (evaluation.exceptionDetails !== undefined) {
      throw new Error(
        `runTurn failed: ${evaluation.exceptionDetails.exception?.description ?? evaluation.exceptionDetails.text}`,
      );
    }
    summary = evaluation.result.value as TurnSummary;
  } finally {
    await client.close();
  }

  expect(summary).toMatchObject({
    status: 'completed',
    finalOutput: 'Written from the browser.',
    completionReason: 'tool_finish',
    approvals: [{ toolName: 'bash', arguments: { command: 'echo from-the-browser > browser.txt' } }],
  });
  expect(summary.methods).toEqual(
    expect.arrayContaining([
      'thread/started',
      'turn/started',
      'approval/request',
      'approval/resolved',
      'turn/completed',
    ]),
  );
  expect(summary.methods.at(-1)).toBe('turn/completed');
  expect(readFileSync(join(sandbox.workspace, 'browser.txt'), 'utf8')).toBe('from-the-browser\n');
  // The turn reached the model server on 127.0.0.1: the approved command's result went back to it.
  expect(sandbox.model.requests).toHaveLength(2);
});
