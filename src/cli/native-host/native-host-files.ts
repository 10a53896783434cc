/**
 * The two files of a native messaging host (docs/spec/native-messaging.md §2): the host manifest the browser
 * reads, and the launcher script it starts. Pure text; native-host-installer.ts writes them.
 */
import { isChromiumFamily, type Browser } from './native-host-locations';

export const DEFAULT_HOST_NAME = 'com.vv_agent.app_server';
export const HOST_DESCRIPTION = 'vv-agent App Server';

/** Chrome's rule, which every supported browser accepts: dot-separated runs of [a-z0-9_]. */
const HOST_NAME = /^[a-z0-9_]+(\.[a-z0-9_]+)*$/;
/** A Chromium extension id: 32 letters a–p. */
const CHROMIUM_EXTENSION_ID = /^[a-p]{32}$/;

export function isValidHostName(name: string): boolean {
  return HOST_NAME.test(name);
}

export function isValidExtensionId(browser: Browser, id: string): boolean {
  // Firefox ids (an e-mail-like id or a {GUID}) are taken as given.
  return isChromiumFamily(browser) ? CHROMIUM_EXTENSION_ID.test(id) : id.length > 0;
}

/** What the browser passes as the caller: Chromium browsers an origin, Firefox the extension id. */
export function allowedCaller(browser: Browser, extensionId: string): string {
  return isChromiumFamily(browser) ? `chrome-extension://${extensionId}/` : extensionId;
}

export interface HostManifest {
  name: string;
  description: string;
  path: string;
  type: 'stdio';
  allowed_origins?: string[];
  allowed_extensions?: string[];
}

export function hostManifest(
  browser: Browser,
  name: string,
  launcherPath: string,
  extensionId: string,
): HostManifest {
  const manifest: HostManifest = { name, description: HOST_DESCRIPTION, path: launcherPath, type: 'stdio' };
  if (isChromiumFamily(browser)) manifest.allowed_origins = [allowedCaller(browser, extensionId)];
  else manifest.allowed_extensions = [extensionId];
  return manifest;
}

export function manifestText(manifest: HostManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** How the launcher starts this installation: its node, its `dist/main.js`, the server options. */
export interface HostCommand {
  nodePath: string;
  mainScript: string;
  /** `--settings <abs> --backend <key> …`, already validated and made absolute. */
  serverArgs: readonly string[];
}

/** A POSIX shell word that stays one literal argument whatever it contains. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Chrome, Chromium and Edge pass the caller's origin as the first argument (Chrome on Windows adds
 * `--parent-window=<hwnd>`); Firefox passes the manifest path first and the extension id second.
 */
function callerArgument(browser: Browser): string {
  return isChromiumFamily(browser) ? '"$1"' : '"$2"';
}

export function launcherScript(
  browser: Browser,
  name: string,
  command: HostCommand,
  extensionId: string,
): string {
  const words = [
    command.nodePath,
    command.mainScript,
    'app-server',
    '--listen',
    'native-messaging',
    ...command.serverArgs,
    '--native-allowed-callers',
    allowedCaller(browser, extensionId),
  ].map(shellQuote);
  return [
    '#!/bin/sh',
    `# vv-agent native messaging host ${name} for ${browser}, written by \`vv-agent native-host install\`.`,
    `# \`vv-agent native-host uninstall --browser ${browser} --name ${name}\` removes it and its manifest.`,
    `exec ${words.join(' ')} --native-caller ${callerArgument(browser)}`,
    '',
  ].join('\n');
}
