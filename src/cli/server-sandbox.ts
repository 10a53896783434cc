/**
 * The production server's sandbox (docs/spec/sandbox.md §1–§3), built once at startup: what is hidden
 * (home credential folders, the server's own settings, token, MCP config and store, every
 * `--sandbox-deny-read`), the extra writable roots, and the platform boundary, probed once. A
 * sandbox that cannot work is said once on stderr; the server still starts and `bash` fails closed.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import type { ServerSandbox } from '../core/sandbox/server-sandbox';
import { openPlatformSandbox } from '../runtime/sandbox/platform-sandbox';
import {
  homeCredentialList,
  isWithin,
  realPathOrNull,
  type HiddenPathList,
} from '../runtime/sandbox/sandbox-paths';
import type { ListenOptions } from './cli-invocation';
import { CliConfigurationError } from './cli-configuration-error';

/** The store files SQLite keeps beside its database. */
const SQLITE_COMPANIONS = ['', '-wal', '-shm', '-journal'];

function vvAgentHome(env: NodeJS.ProcessEnv): string {
  const home = env.VV_AGENT_HOME;
  return home !== undefined && home.trim() !== '' ? home : join(homedir(), '.vv-agent');
}

/** §2: the hidden list of this server; `storeFile` is null for a PostgreSQL or in-memory store. */
export function serverHiddenPaths(
  options: ListenOptions,
  env: NodeJS.ProcessEnv,
  storeFile: string | null,
): HiddenPathList {
  const own = [options.settings, options.websocket?.tokenFile ?? null, options.mcpConfig];
  const paths = [
    ...homeCredentialList(env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir()),
    ...own.filter((path): path is string => path !== null).map((path) => resolve(path)),
    ...options.sandbox.denyRead.map((path) => resolve(path)),
  ];
  const storeFiles = storeFile === null ? [] : SQLITE_COMPANIONS.map((suffix) => resolve(storeFile + suffix));
  const storeDirectories = [vvAgentHome(env), ...(storeFile === null ? [] : [dirname(resolve(storeFile))])];
  return {
    paths,
    directories: storeDirectories.map((directory) => ({ directory: resolve(directory), files: storeFiles })),
  };
}

/** `--sandbox-writable-root`: each must exist and lie outside every hidden path (§2: exit 2). */
function resolveWritableRoots(roots: readonly string[], hidden: HiddenPathList): string[] {
  return roots.map((root) => {
    const real = realPathOrNull(root);
    if (real === null) throw new CliConfigurationError(`--sandbox-writable-root not found: ${root}`);
    const hiddenPaths = [...hidden.paths, ...hidden.directories.map((entry) => entry.directory)];
    for (const path of hiddenPaths) {
      const realHidden = realPathOrNull(path);
      if (realHidden !== null && isWithin(real, realHidden)) {
        throw new CliConfigurationError(
          `--sandbox-writable-root ${root} lies inside a hidden path (${path})`,
        );
      }
    }
    return real;
  });
}

export function unavailableSandboxLine(cause: string): string {
  return `vv-agent: sandbox unavailable (${cause}); bash calls will fail until --sandbox danger-full-access is chosen`;
}

export function openServerSandbox(
  options: ListenOptions,
  env: NodeJS.ProcessEnv,
  storeFile: string | null,
  warn: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): ServerSandbox {
  const hidden = serverHiddenPaths(options, env, storeFile);
  const boundary = openPlatformSandbox({
    hidden,
    extraWritableRoots: resolveWritableRoots(options.sandbox.writableRoots, hidden),
    networkAllowed: options.sandbox.network,
    searchPath: env.PATH,
  });
  const cause = boundary.unavailableCause;
  if (cause !== null && options.sandbox.mode !== 'danger-full-access') warn(unavailableSandboxLine(cause));
  return { maxMode: options.sandbox.mode, boundary };
}
