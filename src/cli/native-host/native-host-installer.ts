/**
 * `native-host install | uninstall | status` (docs/spec/native-messaging.md §2): writes, removes and lists the
 * launcher and the host manifest for the current user. It writes nothing but those two files (and
 * the folders that hold them), prints every path it touches, and running it again with the same
 * options rewrites the same bytes. On Windows the manifest belongs in the registry: the commands
 * print what to create instead of writing anything.
 */
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import {
  allowedCaller,
  hostManifest,
  launcherScript,
  manifestText,
  type HostCommand,
} from './native-host-files';
import {
  BROWSERS,
  isWindows,
  launcherDirectory,
  launcherFileName,
  manifestDirectory,
  manifestFileName,
  windowsHostDirectory,
  windowsRegistryKey,
  type Browser,
  type HostEnvironment,
} from './native-host-locations';
import type { NativeHostInstall, NativeHostStatus, NativeHostUninstall } from './native-host-request';
import { makeDirectorySync } from '../../runtime/make-directory';

export interface InstallerContext extends HostEnvironment {
  /** Relative paths given on the command line are resolved against it. */
  cwd: string;
  /** The node binary and the `dist/main.js` of this installation, which the launcher runs. */
  nodePath: string;
  mainScript: string;
}

const LAUNCHER_MODE = 0o755;
const MANIFEST_MODE = 0o644;

/** Relative command-line paths against the cwd, with the path rules of the target OS. */
function absolute(path: string, context: InstallerContext): string {
  const paths = isWindows(context) ? win32 : posix;
  return paths.isAbsolute(path) ? path : paths.resolve(context.cwd, path);
}

function hostCommand(request: NativeHostInstall, context: InstallerContext): HostCommand {
  const serverArgs = [
    '--settings',
    absolute(request.settings, context),
    '--backend',
    request.backend,
    '--model',
    request.model,
  ];
  if (request.store !== null)
    serverArgs.push(
      '--store',
      request.store === ':memory:' ? request.store : absolute(request.store, context),
    );
  if (request.approvalPolicy !== null) serverArgs.push('--approval-policy', request.approvalPolicy);
  // docs/spec/sandbox.md §1: the launcher always names the mode, so the host's boundary is explicit.
  serverArgs.push('--sandbox', request.sandbox ?? 'workspace-write');
  return { nodePath: context.nodePath, mainScript: context.mainScript, serverArgs };
}

function paths(
  browser: Browser,
  name: string,
  userDataDir: string | null,
  context: InstallerContext,
): { launcher: string; manifest: string } {
  const dataDir = userDataDir === null ? undefined : absolute(userDataDir, context);
  return {
    launcher: posix.join(launcherDirectory(context), launcherFileName(name, browser)),
    manifest: posix.join(manifestDirectory(browser, context, dataDir), manifestFileName(name)),
  };
}

/** Writes the launcher and the manifest; returns the lines to print. */
export function installNativeHost(request: NativeHostInstall, context: InstallerContext): string[] {
  if (isWindows(context)) return windowsInstallInstructions(request, context);
  const { launcher, manifest } = paths(request.browser, request.name, request.userDataDir, context);
  const command = hostCommand(request, context);
  writeFile(
    launcher,
    launcherScript(request.browser, request.name, command, request.extensionId),
    LAUNCHER_MODE,
  );
  writeFile(
    manifest,
    manifestText(hostManifest(request.browser, request.name, launcher, request.extensionId)),
    MANIFEST_MODE,
  );
  return [`launcher ${launcher}`, `manifest ${manifest}`];
}

/** Removes both files when present; returns one line per path. */
export function uninstallNativeHost(request: NativeHostUninstall, context: InstallerContext): string[] {
  if (isWindows(context)) {
    return [
      `Windows: delete the registry key ${windowsRegistryKey(request.browser, request.name)}`,
      'and the manifest and launcher files its default value names.',
    ];
  }
  const { launcher, manifest } = paths(request.browser, request.name, request.userDataDir, context);
  return [manifest, launcher].map((path) => {
    if (!existsSync(path)) return `absent ${path}`;
    rmSync(path, { force: true });
    return `removed ${path}`;
  });
}

/** One line per installed manifest of any name: `<browser> <name> <manifest path>`. */
export function nativeHostStatus(request: NativeHostStatus, context: InstallerContext): string[] {
  const browsers = request.browser === null ? BROWSERS : [request.browser];
  if (isWindows(context)) {
    return browsers.map(
      (browser) =>
        `Windows: ${browser} hosts are the subkeys of ${windowsRegistryKey(browser, '').slice(0, -1)}`,
    );
  }
  const lines: string[] = [];
  for (const browser of browsers) {
    const dataDir = request.userDataDir === null ? undefined : absolute(request.userDataDir, context);
    const directory = manifestDirectory(browser, context, dataDir);
    if (!existsSync(directory)) continue;
    for (const file of readdirSync(directory).sort()) {
      if (file.endsWith('.json'))
        lines.push(`${browser} ${file.slice(0, -'.json'.length)} ${posix.join(directory, file)}`);
    }
  }
  return lines;
}

function writeFile(path: string, text: string, mode: number): void {
  makeDirectorySync(posix.dirname(path));
  writeFileSync(path, text, { mode });
  // `mode` applies only when the file is created; a re-install keeps the mode right too.
  chmodSync(path, mode);
}

/** Windows: the files and the registry key to create by hand; nothing is written. */
function windowsInstallInstructions(request: NativeHostInstall, context: InstallerContext): string[] {
  const directory = windowsHostDirectory(context);
  const launcher = win32.join(directory, `${request.name}-${request.browser}.cmd`);
  const manifest = win32.join(directory, `${request.name}-${request.browser}.json`);
  const command = hostCommand(request, context);
  // Quoted (`%~n` drops the browser's own quotes), so an absent caller is still passed, empty.
  const callerArgument = request.browser === 'firefox' ? '"%~2"' : '"%~1"';
  const quoted = (word: string): string => (/^--[a-z-]+$/.test(word) ? word : `"${word}"`);
  const launcherLine = [
    quoted(command.nodePath),
    quoted(command.mainScript),
    'app-server --listen native-messaging',
    ...command.serverArgs.map(quoted),
    '--native-allowed-callers',
    quoted(allowedCaller(request.browser, request.extensionId)),
    '--native-caller',
    callerArgument,
  ].join(' ');
  return [
    'Windows: vv-agent writes nothing here; create these yourself.',
    `launcher ${launcher}:`,
    '@echo off',
    launcherLine,
    `manifest ${manifest}:`,
    ...manifestText(hostManifest(request.browser, request.name, launcher, request.extensionId))
      .trimEnd()
      .split('\n'),
    `registry key ${windowsRegistryKey(request.browser, request.name)}`,
    `  (Default) = ${manifest}`,
  ];
}
