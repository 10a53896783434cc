/**
 * Pure parser of `vv-agent native-host install | uninstall | status` (docs/spec/native-messaging.md §2), with
 * the option rules of the listen parser (docs/spec/protocol.md §12.2): `--flag value` or `--flag=value`,
 * left to right, the first error wins. Names and extension ids the browsers would reject are
 * refused here, before anything is written.
 */
import type { ApprovalPolicy } from '../../runtime/approvals/types';
import { isSandboxMode, SANDBOX_MODES, type SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { isValidExtensionId, isValidHostName, DEFAULT_HOST_NAME } from './native-host-files';
import { BROWSERS, isChromiumFamily, type Browser } from './native-host-locations';
import type { NativeHostRequest } from './native-host-request';

const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ['on-request', 'untrusted', 'never'];

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

/** Value rules shared by the actions: the parsed value or an error message. */
const VALUE_RULES: Record<string, (raw: string) => { error: string } | null> = {
  '--browser': (raw) =>
    (BROWSERS as readonly string[]).includes(raw)
      ? null
      : { error: `--browser must be one of: ${BROWSERS.join(', ')}` },
  '--name': (raw) =>
    isValidHostName(raw)
      ? null
      : {
          error: `invalid --name: ${raw} (browsers accept lower-case letters, digits, "_" and "." only, dot-separated)`,
        },
  '--approval-policy': (raw) =>
    (APPROVAL_POLICIES as readonly string[]).includes(raw)
      ? null
      : { error: '--approval-policy must be one of: on-request, untrusted, never' },
  '--sandbox': (raw) =>
    isSandboxMode(raw) ? null : { error: `--sandbox must be one of: ${SANDBOX_MODES.join(', ')}` },
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
  const parsed = parseFlags(rest, ACTION_FLAGS[action].allowed);
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

function parseFlags(
  args: readonly string[],
  allowed: readonly string[],
): { values: Map<string, string> } | { error: string } {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    if (!arg.startsWith('--') || !allowed.includes(flag))
      return { error: `unknown native-host argument: ${flag}` };
    if (values.has(flag)) return { error: `duplicate native-host argument: ${flag}` };
    let raw: string | undefined;
    if (eq >= 0) {
      raw = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      raw = next === undefined || next.startsWith('--') ? undefined : next;
      if (raw !== undefined) i++;
    }
    if (raw === undefined || raw.trim() === '') return { error: `${flag} requires a value` };
    const refusal = VALUE_RULES[flag]?.(raw) ?? null;
    if (refusal !== null) return refusal;
    values.set(flag, raw);
  }
  return { values };
}
