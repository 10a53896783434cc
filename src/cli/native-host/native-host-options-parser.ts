/**
 * Pure parser of `vv-agent native-host install | uninstall | status` (docs/spec/native-messaging.md §2),
 * with the option grammar the CLI's commands share (../flag-arguments.ts, docs/spec/protocol.md
 * §12.2). Names and extension ids the browsers would reject are refused here, before anything is
 * written.
 */
import type { ApprovalPolicy } from '../../runtime/approvals/types';
import { isSandboxMode, SANDBOX_MODES, type SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { parseFlagArguments, type FlagValue } from '../flag-arguments';
import { approvalPolicyValue } from '../listen-options-parser';
import { isValidExtensionId, isValidHostName, DEFAULT_HOST_NAME } from './native-host-files';
import { BROWSERS, isChromiumFamily, type Browser } from './native-host-locations';
import type { NativeHostRequest } from './native-host-request';

type Action = NativeHostRequest['action'];

/** The flags each action takes, and the ones it requires (in the order the error lists them). */
const ACTION_FLAGS: Record<Action, { allowed: readonly string[]; required: readonly string[] }> = {
  install: {
    allowed: [
      '--browser',
      '--extension-id',
      '--name',
      '--user-data-dir',
      '--settings',
      '--backend',
      '--model',
      '--store',
      '--approval-policy',
      '--sandbox',
    ],
    required: ['--browser', '--extension-id', '--settings', '--backend', '--model'],
  },
  uninstall: { allowed: ['--browser', '--name', '--user-data-dir'], required: ['--browser'] },
  status: { allowed: ['--browser', '--user-data-dir'], required: [] },
};

/** Value rules shared by the actions: the value or an error message; a flag without one takes any value. */
const VALUE_RULES: Partial<Record<string, (raw: string) => FlagValue<string>>> = {
  '--browser': (raw) =>
    (BROWSERS as readonly string[]).includes(raw)
      ? { value: raw }
      : { error: `--browser must be one of: ${BROWSERS.join(', ')}` },
  '--name': (raw) =>
    isValidHostName(raw)
      ? { value: raw }
      : {
          error: `invalid --name: ${raw} (browsers accept lower-case letters, digits, "_" and "." only, dot-separated)`,
        },
  '--approval-policy': approvalPolicyValue,
  '--sandbox': (raw) =>
    isSandboxMode(raw) ? { value: raw } : { error: `--sandbox must be one of: ${SANDBOX_MODES.join(', ')}` },
};

function isAction(word: string | undefined): word is Action {
  return word === 'install' || word === 'uninstall' || word === 'status';
}

/** `args` = the arguments after `native-host`. */
export function parseNativeHostCommand(
  args: readonly string[],
): { request: NativeHostRequest } | { error: string } {
  const [action, ...rest] = args;
  if (action === undefined) return { error: 'native-host requires install, uninstall or status' };
  if (!isAction(action)) return { error: `unknown native-host command: ${action}` };
  const parsed = parseFlagArguments(rest, {
    command: 'native-host',
    valueFlags: ACTION_FLAGS[action].allowed,
    parseValue: (flag, raw) => VALUE_RULES[flag]?.(raw) ?? { value: raw },
  });
  if ('error' in parsed) return parsed;
  const values = parsed.values;
  const missing = ACTION_FLAGS[action].required.filter((flag) => values.get(flag) === undefined);
  if (missing.length > 0) return { error: `native-host ${action} requires ${missing.join(', ')}` };

  const browser = (values.get('--browser') as Browser | undefined) ?? null;
  const userDataDir = values.get('--user-data-dir') ?? null;
  if (userDataDir !== null && browser !== null && !isChromiumFamily(browser))
    return { error: '--user-data-dir applies to chrome, chromium and edge only' };
  if (userDataDir !== null && browser === null)
    return { error: '--user-data-dir requires --browser chrome, chromium or edge' };
  const name = values.get('--name') ?? DEFAULT_HOST_NAME;

  if (action === 'status') return { request: { action, browser, userDataDir } };
  if (browser === null) return { error: `native-host ${action} requires --browser` };
  if (action === 'uninstall') return { request: { action, browser, name, userDataDir } };

  const extensionId = values.get('--extension-id') as string;
  if (!isValidExtensionId(browser, extensionId))
    return { error: `invalid --extension-id for ${browser}: expected 32 letters a-p` };
  return {
    request: {
      action,
      browser,
      extensionId,
      name,
      userDataDir,
      settings: values.get('--settings') as string,
      backend: values.get('--backend') as string,
      model: values.get('--model') as string,
      store: values.get('--store') ?? null,
      approvalPolicy: (values.get('--approval-policy') as ApprovalPolicy | undefined) ?? null,
      sandbox: (values.get('--sandbox') as SandboxMode | undefined) ?? null,
    },
  };
}
