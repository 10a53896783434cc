/** Pure parser of the `app-server` listen options (docs/spec/protocol.md §12.2). */
import type { ApprovalPolicy } from '../runtime/approvals/types';
import type { ListenOptions, SandboxOptions, WebSocketListenOptions } from './cli-invocation';
import { isSandboxMode, SANDBOX_MODES } from '../runtime/sandbox/sandbox-mode';
import {
  isLoopbackAddress,
  parseWebSocketListenAddress,
  type WebSocketListenAddress,
} from '../transports/websocket/listen-address';

const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ['on-request', 'untrusted', 'never'];
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const REQUIRED_FLAGS = ['--listen', '--settings', '--backend', '--model'] as const;

type Flag =
  | '--listen'
  | '--settings'
  | '--backend'
  | '--model'
  | '--timeout-seconds'
  | '--store'
  | '--approval-policy'
  | '--approval-timeout-seconds'
  | '--max-message-bytes'
  | '--mcp-config'
  | '--native-caller'
  | '--native-allowed-callers'
  | '--ws-token-file'
  | '--sandbox';

/** Flags without a value (docs/spec/websocket.md §1, docs/spec/sandbox.md §1). */
const SWITCHES = new Set(['--ws-no-auth', '--sandbox-network']);
/** Flags that may be given more than once; their values are collected in order. */
const REPEATABLE = new Set(['--ws-allow-origin', '--sandbox-writable-root', '--sandbox-deny-read']);

type Values = Partial<Record<Flag, string | number>>;

export const INVALID_LISTEN = 'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT';

/** Each flag's value rule: returns the parsed value or an error message. */
const VALUE_RULES: Record<Flag, (raw: string) => { value: string | number } | { error: string }> = {
  '--listen': (raw) =>
    raw === 'stdio' || raw === 'native-messaging' || parseWebSocketListenAddress(raw) !== null
      ? { value: raw }
      : { error: INVALID_LISTEN },
  '--ws-token-file': (raw) => ({ value: raw }),
  '--sandbox': (raw) =>
    isSandboxMode(raw) ? { value: raw } : { error: `--sandbox must be one of: ${SANDBOX_MODES.join(', ')}` },
  '--settings': (raw) => ({ value: raw }),
  '--backend': (raw) => ({ value: raw }),
  '--model': (raw) => ({ value: raw }),
  '--store': (raw) => ({ value: raw }),
  '--mcp-config': (raw) => ({ value: raw }),
  '--native-caller': (raw) => ({ value: raw }),
  '--native-allowed-callers': (raw) => ({ value: raw }),
  '--timeout-seconds': (raw) => positiveNumber(raw, '--timeout-seconds'),
  '--approval-timeout-seconds': (raw) => positiveNumber(raw, '--approval-timeout-seconds'),
  '--approval-policy': (raw) =>
    (APPROVAL_POLICIES as readonly string[]).includes(raw)
      ? { value: raw }
      : { error: '--approval-policy must be one of: on-request, untrusted, never' },
  '--max-message-bytes': (raw) => {
    const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
    return n >= 1 && n <= Number.MAX_SAFE_INTEGER
      ? { value: n }
      : { error: '--max-message-bytes must be a positive integer' };
  },
};

function positiveNumber(raw: string, flag: string): { value: number } | { error: string } {
  const n = DECIMAL.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(n) && n > 0 ? { value: n } : { error: `${flag} must be a finite positive number` };
}

/** docs/spec/native-messaging.md §1: what the installed launcher passes (see ../cli/native-host). */
const NATIVE_FLAGS = ['--native-caller', '--native-allowed-callers'] as const;

function nativeMessagingOptions(
  values: Values,
): Pick<ListenOptions, 'nativeCaller' | 'nativeAllowedCallers'> {
  const caller = values['--native-caller'] as string | undefined;
  const allowed = values['--native-allowed-callers'] as string | undefined;
  return {
    ...(caller !== undefined ? { nativeCaller: caller } : {}),
    ...(allowed !== undefined
      ? { nativeAllowedCallers: allowed.split(',').filter((entry) => entry !== '') }
      : {}),
  };
}

function isFlag(name: string): name is Flag {
  return Object.prototype.hasOwnProperty.call(VALUE_RULES, name);
}

/** Parses arguments left to right; the first error wins. */
export function parseListenOptions(args: readonly string[]): { options: ListenOptions } | { error: string } {
  const values: Values = {};
  const switches = new Set<string>();
  const repeated = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) return { error: `unknown app-server argument: ${arg}` };
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (SWITCHES.has(name)) {
      if (eq >= 0) return { error: `${name} takes no value` };
      if (switches.has(name)) return { error: `duplicate app-server argument: ${name}` };
      switches.add(name);
      continue;
    }
    if (!isFlag(name) && !REPEATABLE.has(name)) return { error: `unknown app-server argument: ${name}` };
    if (isFlag(name) && values[name] !== undefined)
      return { error: `duplicate app-server argument: ${name}` };
    let raw: string | undefined;
    if (eq >= 0) {
      raw = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      raw = next === undefined || next.startsWith('--') ? undefined : next;
      if (raw !== undefined) i++;
    }
    // The launcher forwards whatever caller the browser named, none included; the caller check
    // (docs/spec/native-messaging.md §1) refuses an empty one with its own message.
    const emptyAllowed = name === '--native-caller' && raw === '';
    if (raw === undefined || (raw.trim() === '' && !emptyAllowed))
      return { error: `${name} requires a value` };
    if (!isFlag(name)) {
      repeated.set(name, [...(repeated.get(name) ?? []), raw]);
      continue;
    }
    const parsed = VALUE_RULES[name](raw);
    if ('error' in parsed) return parsed;
    values[name] = parsed.value;
  }
  const missing = REQUIRED_FLAGS.filter((flag) => values[flag] === undefined);
  if (missing.length > 0) return { error: `app-server requires ${missing.join(', ')}` };
  const listen = String(values['--listen']);
  const address = parseWebSocketListenAddress(listen);
  const origins = repeated.get('--ws-allow-origin') ?? [];
  const wsGiven =
    values['--ws-token-file'] !== undefined || switches.has('--ws-no-auth') || origins.length > 0;
  const nativeFlag = NATIVE_FLAGS.find((flag) => values[flag] !== undefined);
  if (nativeFlag !== undefined && listen !== 'native-messaging')
    return { error: `${nativeFlag} requires --listen native-messaging` };
  let websocket: WebSocketListenOptions | undefined;
  if (address === null) {
    if (wsGiven) return { error: '--ws-* options require --listen ws://HOST:PORT' };
  } else {
    const checked = webSocketOptions(
      address,
      values['--ws-token-file'],
      switches.has('--ws-no-auth'),
      origins,
    );
    if ('error' in checked) return checked;
    websocket = checked;
  }
  return {
    options: {
      listen: address !== null ? 'ws' : (listen as 'stdio' | 'native-messaging'),
      ...(websocket !== undefined ? { websocket } : {}),
      settings: String(values['--settings']),
      backend: String(values['--backend']),
      model: String(values['--model']),
      timeoutSeconds: (values['--timeout-seconds'] as number | undefined) ?? 90,
      store: (values['--store'] as string | undefined) ?? null,
      approvalPolicy: (values['--approval-policy'] as ApprovalPolicy | undefined) ?? 'on-request',
      approvalTimeoutSeconds: (values['--approval-timeout-seconds'] as number | undefined) ?? 30,
      maxMessageBytes: (values['--max-message-bytes'] as number | undefined) ?? 16_777_216,
      mcpConfig: (values['--mcp-config'] as string | undefined) ?? null,
      ...nativeMessagingOptions(values),
      sandbox: sandboxOptions(values['--sandbox'], switches, repeated),
    },
  };
}

/** docs/spec/sandbox.md §1, §2: the server's most permissive mode and what it hides or opens. */
function sandboxOptions(
  mode: string | number | undefined,
  switches: ReadonlySet<string>,
  repeated: ReadonlyMap<string, string[]>,
): SandboxOptions {
  return {
    mode: isSandboxMode(mode) ? mode : 'workspace-write',
    network: switches.has('--sandbox-network'),
    writableRoots: repeated.get('--sandbox-writable-root') ?? [],
    denyRead: repeated.get('--sandbox-deny-read') ?? [],
  };
}

/** docs/spec/websocket.md §1: authentication is required unless `--ws-no-auth` on a loopback address. */
function webSocketOptions(
  address: WebSocketListenAddress,
  tokenFile: string | number | undefined,
  noAuth: boolean,
  allowedOrigins: string[],
): WebSocketListenOptions | { error: string } {
  if (noAuth && !isLoopbackAddress(address))
    return { error: '--ws-no-auth is only allowed on a loopback address' };
  if (tokenFile === undefined && !noAuth)
    return { error: '--listen ws:// requires --ws-token-file (or --ws-no-auth on a loopback address)' };
  return { address, tokenFile: tokenFile === undefined ? null : String(tokenFile), noAuth, allowedOrigins };
}
