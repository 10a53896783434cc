import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  installNativeHost,
  nativeHostStatus,
  uninstallNativeHost,
  type InstallerContext,
} from '../../../../src/cli/native-host/native-host-installer';
import type { NativeHostInstall } from '../../../../src/cli/native-host/native-host-request';
import type { Browser } from '../../../../src/cli/native-host/native-host-locations';

const CHROME_ID = 'knldjmfmopnpolahpmmgbagdohdnhkik';

let root: string;
let context: InstallerContext;

/** Every file below `dir`, relative, sorted. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(join(dir, entry)).isFile())
    .sort();
}

function install(browser: Browser, overrides: Partial<NativeHostInstall> = {}): string[] {
  return installNativeHost(
    {
      action: 'install',
      browser,
      extensionId: browser === 'firefox' ? 'agent@example.org' : CHROME_ID,
      name: 'com.vv_agent.app_server',
      userDataDir: null,
      settings: 'settings.json',
      backend: 'local',
      model: 'test-model',
      store: null,
      approvalPolicy: null,
      sandbox: null,
      ...overrides,
    },
    context,
  );
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'vv-native-host-'));
  mkdirSync(join(root, 'home'));
  mkdirSync(join(root, 'work'));
  context = {
    platform: 'linux',
    home: join(root, 'home'),
    env: {},
    cwd: join(root, 'work'),
    nodePath: process.execPath,
    mainScript: '/opt/vv-agent/dist/main.js',
  };
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('native-host install (docs/spec/native-messaging.md §2)', () => {
  it.each<[Browser, 'linux' | 'darwin', string]>([
    ['chrome', 'linux', '.config/google-chrome/NativeMessagingHosts'],
    ['chromium', 'linux', '.config/chromium/NativeMessagingHosts'],
    ['edge', 'linux', '.config/microsoft-edge/NativeMessagingHosts'],
    ['firefox', 'linux', '.mozilla/native-messaging-hosts'],
    ['chrome', 'darwin', 'Library/Application Support/Google/Chrome/NativeMessagingHosts'],
    ['chromium', 'darwin', 'Library/Application Support/Chromium/NativeMessagingHosts'],
    ['edge', 'darwin', 'Library/Application Support/Microsoft Edge/NativeMessagingHosts'],
    ['firefox', 'darwin', 'Library/Application Support/Mozilla/NativeMessagingHosts'],
  ])(
    '%s on %s: writes exactly the launcher and the manifest, and prints both paths',
    (browser, platform, folder) => {
      context.platform = platform;
      const home = context.home;
      const launcherFolder =
        platform === 'darwin'
          ? 'Library/Application Support/vv-agent/native-host'
          : '.local/share/vv-agent/native-host';
      const launcher = join(home, launcherFolder, `com.vv_agent.app_server-${browser}.sh`);
      const manifest = join(home, folder, 'com.vv_agent.app_server.json');

      expect(install(browser)).toEqual([`launcher ${launcher}`, `manifest ${manifest}`]);
      expect(filesBelow(root)).toEqual([relative(root, launcher), relative(root, manifest)].sort());
      expect(statSync(launcher).mode & 0o777).toBe(0o755);
      const caller =
        browser === 'firefox'
          ? { allowed_extensions: ['agent@example.org'] }
          : { allowed_origins: [`chrome-extension://${CHROME_ID}/`] };
      expect(JSON.parse(readFileSync(manifest, 'utf8'))).toEqual({
        name: 'com.vv_agent.app_server',
        description: 'vv-agent App Server',
        path: launcher,
        type: 'stdio',
        ...caller,
      });
    },
  );

  it('writes a launcher that runs this node and main.js with the options, made absolute, and the caller', () => {
    install('chromium', { store: 'data/threads.sqlite', approvalPolicy: 'untrusted' });
    const launcher = join(
      context.home,
      '.local/share/vv-agent/native-host/com.vv_agent.app_server-chromium.sh',
    );
    const work = context.cwd;
    expect(readFileSync(launcher, 'utf8')).toBe(
      [
        '#!/bin/sh',
        '# vv-agent native messaging host com.vv_agent.app_server for chromium, written by `vv-agent native-host install`.',
        '# `vv-agent native-host uninstall --browser chromium --name com.vv_agent.app_server` removes it and its manifest.',
        `exec ${process.execPath} /opt/vv-agent/dist/main.js app-server --listen native-messaging --settings ${work}/settings.json --backend local --model test-model --store ${work}/data/threads.sqlite --approval-policy untrusted --sandbox workspace-write --native-allowed-callers chrome-extension://${CHROME_ID}/ --native-caller "$1"`,
        '',
      ].join('\n'),
    );
  });

  it('quotes every value so the launcher passes it as one argument; Firefox forwards the extension id ($2)', () => {
    // The launcher's "node" runs a script that prints the arguments it received.
    const printer = join(root, 'print-args.js');
    writeFileSync(printer, 'process.stdout.write(JSON.stringify(process.argv.slice(2)))');
    context.mainScript = printer;
    const odd = `it's a "dir" with $HOME and \`ticks\``;
    install('firefox', { settings: `${odd}/settings.json`, backend: 'a b' });
    const launcher = join(
      context.home,
      '.local/share/vv-agent/native-host/com.vv_agent.app_server-firefox.sh',
    );
    const manifest = join(context.home, '.mozilla/native-messaging-hosts/com.vv_agent.app_server.json');
    const args = JSON.parse(
      execFileSync(launcher, [manifest, 'agent@example.org'], { encoding: 'utf8' }),
    ) as string[];
    expect(args).toEqual([
      'app-server',
      '--listen',
      'native-messaging',
      '--settings',
      join(context.cwd, odd, 'settings.json'),
      '--backend',
      'a b',
      '--model',
      'test-model',
      '--sandbox',
      'workspace-write',
      '--native-allowed-callers',
      'agent@example.org',
      '--native-caller',
      'agent@example.org',
    ]);
  });

  it('Chromium browsers forward the origin ($1) and ignore what follows (Chrome on Windows adds --parent-window)', () => {
    const printer = join(root, 'print-args.js');
    writeFileSync(printer, 'process.stdout.write(JSON.stringify(process.argv.slice(-2)))');
    context.mainScript = printer;
    install('chrome');
    const launcher = join(
      context.home,
      '.local/share/vv-agent/native-host/com.vv_agent.app_server-chrome.sh',
    );
    const origin = `chrome-extension://${CHROME_ID}/`;
    expect(JSON.parse(execFileSync(launcher, [origin, '--parent-window=0'], { encoding: 'utf8' }))).toEqual([
      '--native-caller',
      origin,
    ]);
    // No caller: still forwarded, as an empty value for the caller check to refuse.
    expect(JSON.parse(execFileSync(launcher, [''], { encoding: 'utf8' }))).toEqual(['--native-caller', '']);
  });

  it('is idempotent: the same install again prints the same lines and leaves the same bytes', () => {
    const first = install('edge');
    const before = filesBelow(root).map((file) => readFileSync(join(root, file), 'utf8'));
    expect(install('edge')).toEqual(first);
    expect(filesBelow(root).map((file) => readFileSync(join(root, file), 'utf8'))).toEqual(before);
  });

  it('writes the manifest into <user-data-dir>/NativeMessagingHosts when given', () => {
    const lines = install('chromium', { userDataDir: 'profile' });
    expect(lines[1]).toBe(
      `manifest ${join(context.cwd, 'profile/NativeMessagingHosts/com.vv_agent.app_server.json')}`,
    );
  });

  it('on Windows prints the launcher, the manifest and the registry key to create, and writes nothing', () => {
    context.platform = 'win32';
    context.env = { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' };
    context.nodePath = 'C:\\node\\node.exe';
    context.mainScript = 'C:\\vv\\dist\\main.js';
    context.cwd = 'C:\\work';
    const lines = install('chrome');
    expect(filesBelow(root)).toEqual([]);
    const dir = 'C:\\Users\\ada\\AppData\\Local\\vv-agent\\native-host';
    expect(lines).toEqual([
      'Windows: vv-agent writes nothing here; create these yourself.',
      `launcher ${dir}\\com.vv_agent.app_server-chrome.cmd:`,
      '@echo off',
      `"C:\\node\\node.exe" "C:\\vv\\dist\\main.js" app-server --listen native-messaging --settings "C:\\work\\settings.json" --backend "local" --model "test-model" --sandbox "workspace-write" --native-allowed-callers "chrome-extension://${CHROME_ID}/" --native-caller "%~1"`,
      `manifest ${dir}\\com.vv_agent.app_server-chrome.json:`,
      '{',
      '  "name": "com.vv_agent.app_server",',
      '  "description": "vv-agent App Server",',
      `  "path": ${JSON.stringify(`${dir}\\com.vv_agent.app_server-chrome.cmd`)},`,
      '  "type": "stdio",',
      '  "allowed_origins": [',
      `    "chrome-extension://${CHROME_ID}/"`,
      '  ]',
      '}',
      'registry key HKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.vv_agent.app_server',
      `  (Default) = ${dir}\\com.vv_agent.app_server-chrome.json`,
    ]);
  });
});

describe('native-host uninstall and status', () => {
  it('uninstall removes both files and prints each path; again, it reports them absent', () => {
    const [launcherLine, manifestLine] = install('chromium');
    const launcher = launcherLine.slice('launcher '.length);
    const manifest = manifestLine.slice('manifest '.length);
    const request = {
      action: 'uninstall',
      browser: 'chromium',
      name: 'com.vv_agent.app_server',
      userDataDir: null,
    } as const;
    expect(uninstallNativeHost(request, context)).toEqual([`removed ${manifest}`, `removed ${launcher}`]);
    expect(filesBelow(root)).toEqual([]);
    expect(uninstallNativeHost(request, context)).toEqual([`absent ${manifest}`, `absent ${launcher}`]);
  });

  it('uninstall of one browser leaves the other browsers installed', () => {
    install('chrome');
    install('firefox');
    uninstallNativeHost(
      { action: 'uninstall', browser: 'chrome', name: 'com.vv_agent.app_server', userDataDir: null },
      context,
    );
    expect(filesBelow(context.home)).toEqual([
      '.local/share/vv-agent/native-host/com.vv_agent.app_server-firefox.sh',
      '.mozilla/native-messaging-hosts/com.vv_agent.app_server.json',
    ]);
  });

  it('status prints one line per installed manifest of any name: <browser> <name> <manifest path>', () => {
    expect(nativeHostStatus({ action: 'status', browser: null, userDataDir: null }, context)).toEqual([]);
    install('chromium');
    install('firefox', { name: 'org.example.other' });
    // A host some other program installed.
    const foreign = join(context.home, '.config/google-chrome/NativeMessagingHosts/com.example.wallet.json');
    mkdirSync(join(foreign, '..'), { recursive: true });
    writeFileSync(foreign, '{}');
    expect(nativeHostStatus({ action: 'status', browser: null, userDataDir: null }, context)).toEqual([
      `chrome com.example.wallet ${foreign}`,
      `chromium com.vv_agent.app_server ${join(context.home, '.config/chromium/NativeMessagingHosts/com.vv_agent.app_server.json')}`,
      `firefox org.example.other ${join(context.home, '.mozilla/native-messaging-hosts/org.example.other.json')}`,
    ]);
    expect(
      nativeHostStatus({ action: 'status', browser: 'firefox', userDataDir: null }, context),
    ).toHaveLength(1);
  });
});
