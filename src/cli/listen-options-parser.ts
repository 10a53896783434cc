/** Pure parser of the `app-server` listen options (docs/spec/protocol.md §12.2). */
import type { ApprovalPolicy } from '../runtime/approvals/types';
import type { ListenOptions, SandboxOptions, WebSocketListenOptions } from './cli-invocation';
import { parseFlagArguments, type FlagValue } from './flag-arguments';
import {
  checkMetricsListen,
  DEFAULT_OBSERVABILITY_OPTIONS,
  INVALID_METRICS_LISTEN,
  LOG_LEVELS,
  parseMetricsListen,
  type LogFormat,
  type LogLevel,
  type ObservabilityOptions,
} from './observability-options';
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
  | '--metrics-listen'
  | '--log-format'
  | '--log-level'
  | '--sandbox';

/**
 * Flags without a value (docs/spec/websocket.md §1, docs/spec/inspector.md §1,
 * docs/spec/observability.md §1, docs/spec/sandbox.md §1).
 */
const SWITCHES = ['--ws-no-auth', '--inspector', '--metrics-allow-remote', '--sandbox-network'];
/** `--ws-allow-origin` may be given more than once; its values are collected in order. */
const ALLOWED_ORIGIN = '--ws-allow-origin';
/** docs/spec/sandbox.md §1: repeatable, their values collected in order. */
const SANDBOX_WRITABLE_ROOT = '--sandbox-writable-root';
const SANDBOX_DENY_READ = '--sandbox-deny-read';

type Values = ReadonlyMap<string, string | number>;

export const INVALID_LISTEN = 'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT';

/** Each flag's value rule: returns the parsed value or an error message. */
const VALUE_RULES: Record<Flag, (raw: string) => FlagValue<string | number>> = {
  '--listen': (raw) =>
    raw === 'stdio' || raw === 'native-messaging' || parseWebSocketListenAddress(raw) !== null
      ? { value: raw }
      : { error: INVALID_LISTEN },
  '--ws-token-file': (raw) => ({ value: raw }),
  '--metrics-listen': (raw) =>
    parseMetricsListen(raw) !== null ? { value: raw } : { error: INVALID_METRICS_LISTEN },
  '--log-format': (raw) =>
    raw === 'text' || raw === 'json' ? { value: raw } : { error: '--log-format must be one of: text, json' },
  '--log-level': (raw) =>
    (LOG_LEVELS as readonly string[]).includes(raw)
      ? { value: raw }
      : { error: `--log-level must be one of: ${LOG_LEVELS.join(', ')}` },
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
  '--approval-policy': approvalPolicyValue,
  '--max-message-bytes': (raw) => {
    const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
    return n >= 1 && n <= Number.MAX_SAFE_INTEGER
      ? { value: n }
      : { error: '--max-message-bytes must be a positive integer' };
  },
};

/** `--approval-policy`, here and in the native host's install command, which writes it into the launcher. */
export function approvalPolicyValue(raw: string): FlagValue<ApprovalPolicy> {
  return (APPROVAL_POLICIES as readonly string[]).includes(raw)
    ? { value: raw as ApprovalPolicy }
    : { error: '--approval-policy must be one of: on-request, untrusted, never' };
}

function positiveNumber(raw: string, flag: string): FlagValue<number> {
  const n = DECIMAL.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(n) && n > 0 ? { value: n } : { error: `${flag} must be a finite positive number` };
}

/** docs/spec/native-messaging.md §1: what the installed launcher passes (see ../cli/native-host). */
const NATIVE_FLAGS = ['--native-caller', '--native-allowed-callers'] as const;

function nativeMessagingOptions(
  values: Values,
): Pick<ListenOptions, 'nativeCaller' | 'nativeAllowedCallers'> {
  const caller = values.get('--native-caller') as string | undefined;
  const allowed = values.get('--native-allowed-callers') as string | undefined;
  return {
    ...(caller !== undefined ? { nativeCaller: caller } : {}),
    ...(allowed !== undefined
      ? { nativeAllowedCallers: allowed.split(',').filter((entry) => entry !== '') }
      : {}),
  };
}

/** Parses arguments left to right; the first error wins. */
export function parseListenOptions(args: readonly string[]): { options: ListenOptions } | { error: string } {
  const parsed = parseFlagArguments(args, {
    command: 'app-server',
    valueFlags: Object.keys(VALUE_RULES),
    parseValue: (flag, raw) => VALUE_RULES[flag as Flag](raw),
    switches: SWITCHES,
    repeatable: [ALLOWED_ORIGIN, SANDBOX_WRITABLE_ROOT, SANDBOX_DENY_READ],
    // The launcher forwards whatever caller the browser named, none included; the caller check
    // (docs/spec/native-messaging.md §1) refuses an empty one with its own message.
    emptyAllowed: ['--native-caller'],
  });
  if ('error' in parsed) return parsed;
  const { values, switches, repeated } = parsed;
  const origins = repeated.get(ALLOWED_ORIGIN) ?? [];
  const missing = REQUIRED_FLAGS.filter((flag) => !values.has(flag));
  if (missing.length > 0) return { error: `app-server requires ${missing.join(', ')}` };
  const listen = String(values.get('--listen'));
  const address = parseWebSocketListenAddress(listen);
  const wsGiven = values.has('--ws-token-file') || switches.has('--ws-no-auth') || origins.length > 0;
  const observability = observabilityOptions(values, switches.has('--metrics-allow-remote'));
  if (observability !== null && 'error' in observability) return observability;
  const nativeFlag = NATIVE_FLAGS.find((flag) => values.has(flag));
  if (nativeFlag !== undefined && listen !== 'native-messaging')
    return { error: `${nativeFlag} requires --listen native-messaging` };
  let websocket: WebSocketListenOptions | undefined;
  if (address === null) {
    if (wsGiven) return { error: '--ws-* options require --listen ws://HOST:PORT' };
    if (switches.has('--inspector')) return { error: '--inspector requires --listen ws://HOST:PORT' };
  } else {
    const checked = webSocketOptions(
      address,
      values.get('--ws-token-file'),
      switches.has('--ws-no-auth'),
      origins,
    );
    if ('error' in checked) return checked;
    websocket = switches.has('--inspector') ? { ...checked, inspector: true } : checked;
  }
  return {
    options: {
      listen: address !== null ? 'ws' : (listen as 'stdio' | 'native-messaging'),
      ...(websocket !== undefined ? { websocket } : {}),
      settings: String(values.get('--settings')),
      backend: String(values.get('--backend')),
      model: String(values.get('--model')),
      timeoutSeconds: (values.get('--timeout-seconds') as number | undefined) ?? 90,
      store: (values.get('--store') as string | undefined) ?? null,
      approvalPolicy: (values.get('--approval-policy') as ApprovalPolicy | undefined) ?? 'on-request',
      approvalTimeoutSeconds: (values.get('--approval-timeout-seconds') as number | undefined) ?? 30,
      maxMessageBytes: (values.get('--max-message-bytes') as number | undefined) ?? 16_777_216,
      mcpConfig: (values.get('--mcp-config') as string | undefined) ?? null,
      ...nativeMessagingOptions(values),
      // Only when one of its flags was given, so the other commands' parsed options stay as they were.
      ...(observability !== null ? { observability } : {}),
      sandbox: sandboxOptions(values.get('--sandbox'), switches, repeated),
    },
  };
}

/** docs/spec/observability.md §1, §4. */
function observabilityOptions(
  values: Values,
  allowRemote: boolean,
): ObservabilityOptions | { error: string } | null {
  const raw = values.get('--metrics-listen') as string | undefined;
  if (raw === undefined && !allowRemote && !values.has('--log-format') && !values.has('--log-level'))
    return null;
  const metricsListen = raw === undefined ? null : checkMetricsListen(raw, allowRemote);
  if (metricsListen !== null && 'error' in metricsListen) return metricsListen;
  return {
    metricsListen,
    logFormat:
      (values.get('--log-format') as LogFormat | undefined) ?? DEFAULT_OBSERVABILITY_OPTIONS.logFormat,
    logLevel: (values.get('--log-level') as LogLevel | undefined) ?? DEFAULT_OBSERVABILITY_OPTIONS.logLevel,
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
    writableRoots: repeated.get(SANDBOX_WRITABLE_ROOT) ?? [],
    denyRead: repeated.get(SANDBOX_DENY_READ) ?? [],
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
