import {
  launcherDirectory,
  manifestDirectory,
  windowsRegistryKey,
  type Browser,
  type HostEnvironment,
} from '../../../../src/cli/native-host/native-host-locations';

const linux: HostEnvironment = { platform: 'linux', home: '/home/ada', env: {} };
const mac: HostEnvironment = { platform: 'darwin', home: '/Users/ada', env: {} };

describe('native host locations (docs/spec/native-messaging.md §2)', () => {
  it.each<[Browser, string, string]>([
    [
      'chrome',
      '/home/ada/.config/google-chrome/NativeMessagingHosts',
      '/Users/ada/Library/Application Support/Google/Chrome/NativeMessagingHosts',
    ],
    [
      'chromium',
      '/home/ada/.config/chromium/NativeMessagingHosts',
      '/Users/ada/Library/Application Support/Chromium/NativeMessagingHosts',
    ],
    [
      'edge',
      '/home/ada/.config/microsoft-edge/NativeMessagingHosts',
      '/Users/ada/Library/Application Support/Microsoft Edge/NativeMessagingHosts',
    ],
    [
      'firefox',
      '/home/ada/.mozilla/native-messaging-hosts',
      '/Users/ada/Library/Application Support/Mozilla/NativeMessagingHosts',
    ],
  ])('%s: the per-user manifest folder on Linux and macOS', (browser, linuxDir, macDir) => {
    expect(manifestDirectory(browser, linux)).toBe(linuxDir);
    expect(manifestDirectory(browser, mac)).toBe(macDir);
  });

  it('follows XDG_CONFIG_HOME on Linux as Chromium-based browsers do; Firefox does not', () => {
    const xdg = { ...linux, env: { XDG_CONFIG_HOME: '/cfg' } };
    expect(manifestDirectory('chromium', xdg)).toBe('/cfg/chromium/NativeMessagingHosts');
    expect(manifestDirectory('firefox', xdg)).toBe('/home/ada/.mozilla/native-messaging-hosts');
    // A relative value is not a valid XDG directory.
    expect(manifestDirectory('chrome', { ...linux, env: { XDG_CONFIG_HOME: 'cfg' } })).toBe(
      '/home/ada/.config/google-chrome/NativeMessagingHosts',
    );
  });

  it('puts the manifest in <user-data-dir>/NativeMessagingHosts for a profile outside the default one', () => {
    expect(manifestDirectory('chromium', linux, '/tmp/profile')).toBe('/tmp/profile/NativeMessagingHosts');
  });

  it('puts the launcher in ${XDG_DATA_HOME:-~/.local/share}/vv-agent/native-host (macOS: Application Support)', () => {
    expect(launcherDirectory(linux)).toBe('/home/ada/.local/share/vv-agent/native-host');
    expect(launcherDirectory({ ...linux, env: { XDG_DATA_HOME: '/data' } })).toBe(
      '/data/vv-agent/native-host',
    );
    expect(launcherDirectory(mac)).toBe('/Users/ada/Library/Application Support/vv-agent/native-host');
  });

  it.each<[Browser, string]>([
    ['chrome', 'HKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.x'],
    ['chromium', 'HKEY_CURRENT_USER\\Software\\Chromium\\NativeMessagingHosts\\com.x'],
    ['edge', 'HKEY_CURRENT_USER\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.x'],
    ['firefox', 'HKEY_CURRENT_USER\\Software\\Mozilla\\NativeMessagingHosts\\com.x'],
  ])('%s: the Windows registry key', (browser, key) => {
    expect(windowsRegistryKey(browser, 'com.x')).toBe(key);
  });
});
