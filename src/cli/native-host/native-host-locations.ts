/**
 * Where `native-host install` puts its two files (docs/spec/native-messaging.md §2), per browser and OS.
 * Pure: the platform, home directory and environment are passed in, so every OS's paths are
 * testable anywhere.
 */
import { posix, win32 } from 'node:path';

export const BROWSERS = ['chrome', 'chromium', 'edge', 'firefox'] as const;
export type Browser = (typeof BROWSERS)[number];

/** The browsers that read `allowed_origins` and take `--user-data-dir` (Chromium and its builds). */
export const CHROMIUM_FAMILY: readonly Browser[] = ['chrome', 'chromium', 'edge'];

export function isChromiumFamily(browser: Browser): boolean {
  return CHROMIUM_FAMILY.includes(browser);
}

export interface HostEnvironment {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** Each browser's user configuration folder below `~/.config` (Linux) and `~/Library/Application Support` (macOS). */
const LINUX_CONFIG: Record<Exclude<Browser, 'firefox'>, string> = {
  chrome: 'google-chrome',
  chromium: 'chromium',
  edge: 'microsoft-edge',
};
const MAC_APP_SUPPORT: Record<Browser, string> = {
  chrome: 'Google/Chrome',
  chromium: 'Chromium',
  edge: 'Microsoft Edge',
  firefox: 'Mozilla',
};
const WINDOWS_REGISTRY: Record<Browser, string> = {
  chrome: 'HKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts',
  chromium: 'HKEY_CURRENT_USER\\Software\\Chromium\\NativeMessagingHosts',
  edge: 'HKEY_CURRENT_USER\\Software\\Microsoft\\Edge\\NativeMessagingHosts',
  firefox: 'HKEY_CURRENT_USER\\Software\\Mozilla\\NativeMessagingHosts',
};

/** An absolute XDG directory from the environment, else the default below home (XDG Base Directory rules). */
function xdgDirectory(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const value = env[variable];
  return value !== undefined && posix.isAbsolute(value) ? value : fallback;
}

export function isWindows(host: HostEnvironment): boolean {
  return host.platform === 'win32';
}

/**
 * The folder the browser reads per-user host manifests from. `userDataDir` is the browser's own
 * `--user-data-dir` for a profile outside the default one: Chromium-based browsers then look in
 * `<user-data-dir>/NativeMessagingHosts`.
 */
export function manifestDirectory(browser: Browser, host: HostEnvironment, userDataDir?: string): string {
  if (userDataDir !== undefined) return posix.join(userDataDir, 'NativeMessagingHosts');
  if (host.platform === 'darwin') {
    return posix.join(
      host.home,
      'Library',
      'Application Support',
      MAC_APP_SUPPORT[browser],
      'NativeMessagingHosts',
    );
  }
  if (browser === 'firefox') return posix.join(host.home, '.mozilla', 'native-messaging-hosts');
  const config = xdgDirectory(host.env, 'XDG_CONFIG_HOME', posix.join(host.home, '.config'));
  return posix.join(config, LINUX_CONFIG[browser], 'NativeMessagingHosts');
}

/** `${XDG_DATA_HOME:-~/.local/share}/vv-agent/native-host` (macOS: `~/Library/Application Support/vv-agent/native-host`). */
export function launcherDirectory(host: HostEnvironment): string {
  if (host.platform === 'darwin') {
    return posix.join(host.home, 'Library', 'Application Support', 'vv-agent', 'native-host');
  }
  const data = xdgDirectory(host.env, 'XDG_DATA_HOME', posix.join(host.home, '.local', 'share'));
  return posix.join(data, 'vv-agent', 'native-host');
}

/** One launcher per host name and browser: each carries its own allow-list and caller argument. */
export function launcherFileName(name: string, browser: Browser): string {
  return `${name}-${browser}.sh`;
}

export function manifestFileName(name: string): string {
  return `${name}.json`;
}

/** Windows: the registry key whose default value names the manifest file. */
export function windowsRegistryKey(browser: Browser, name: string): string {
  return `${WINDOWS_REGISTRY[browser]}\\${name}`;
}

/** Windows: where the printed instructions suggest putting the launcher and the manifest. */
export function windowsHostDirectory(host: HostEnvironment): string {
  const local = host.env.LOCALAPPDATA ?? win32.join(host.home, 'AppData', 'Local');
  return win32.join(local, 'vv-agent', 'native-host');
}
