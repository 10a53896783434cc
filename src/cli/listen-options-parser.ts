/** Pure parser of the `app-server` listen options (protocol.md §12.2). */
import type { ApprovalPolicy } from '../runtime/approvals/types';
import type { ListenOptions } from './cli-invocation';

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
  | '--native-allowed-callers';

type Values = Partial<Record<Flag, string | number>>;

/** Each flag's value rule: returns the parsed value or an error message. */
const VALUE_RULES: Record<Flag, (raw: string) => { value: string | number } | { error: string }> = {
  '--listen': (raw) =>
    raw === 'stdio' || raw === 'native-messaging'
      ? { value: raw }
      : { error: 'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT' },
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

/** native-messaging.md §1: what the installed launcher passes (see ../cli/native-host). */
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
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) return { error: `unknown app-server argument: ${arg}` };
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (!isFlag(name)) return { error: `unknown app-server argument: ${name}` };
    if (values[name] !== undefined) return { error: `duplicate app-server argument: ${name}` };
    let raw: string | undefined;
    if (eq >= 0) {
      raw = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      raw = next === undefined || next.startsWith('--') ? undefined : next;
      if (raw !== undefined) i++;
    }
    if (raw === undefined || raw.trim() === '') return { error: `${name} requires a value` };
    const parsed = VALUE_RULES[name](raw);
    if ('error' in parsed) return parsed;
    values[name] = parsed.value;
  }
  const missing = REQUIRED_FLAGS.filter((flag) => values[flag] === undefined);
  if (missing.length > 0) return { error: `app-server requires ${missing.join(', ')}` };
  const listen = values['--listen'] as ListenOptions['listen'];
  const nativeFlag = NATIVE_FLAGS.find((flag) => values[flag] !== undefined);
  if (nativeFlag !== undefined && listen !== 'native-messaging')
    return { error: `${nativeFlag} requires --listen native-messaging` };
  return {
    options: {
      listen,
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
    },
  };
}
