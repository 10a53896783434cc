/** Pure dispatch of the command line into a `CliInvocation` (docs/spec/protocol.md §12.1, §12.5, §12.6). */
import type { CliInvocation, HelpTopic } from './cli-invocation';
import { parseListenOptions } from './listen-options-parser';
import { parseNativeHostCommand } from './native-host/native-host-options-parser';
import { parseAcpOptions } from './acp-options-parser';

function parseSchemaCommand(kind: 'schema' | 'generate-ts', args: readonly string[]): CliInvocation {
  const [flag, dir, ...rest] = args;
  if (flag !== '--out' || dir === undefined || dir.trim() === '' || dir.startsWith('--') || rest.length > 0) {
    return { kind: 'usage-error', message: `app-server ${kind} requires --out <dir>` };
  }
  return { kind, out: dir };
}

function parseDebugCommand(args: readonly string[]): CliInvocation {
  if (args[0] === 'app-server' && args[1] === 'inspect') return parseInspectCommand(args.slice(2));
  if (args[0] !== 'app-server' || args[1] !== 'send-message') {
    return { kind: 'usage-error', message: 'unknown debug command' };
  }
  const words = args.slice(2);
  if (words.length === 0) {
    return { kind: 'usage-error', message: 'debug app-server send-message requires a message' };
  }
  return { kind: 'debug-send-message', message: words.join(' ') };
}

/** docs/spec/inspector.md §1: `debug app-server inspect [--port N] [--open]`; port 0 = any free port. */
function parseInspectCommand(args: readonly string[]): CliInvocation {
  let port: number | undefined;
  let open = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--open' && !open) {
      open = true;
      continue;
    }
    const inline = arg.startsWith('--port=') ? arg.slice('--port='.length) : undefined;
    if ((arg === '--port' || inline !== undefined) && port === undefined) {
      const raw = inline ?? args[++i];
      const value = raw !== undefined && /^[0-9]{1,5}$/.test(raw) ? Number(raw) : NaN;
      if (!(value <= 65535))
        return { kind: 'usage-error', message: '--port must be an integer from 0 to 65535' };
      port = value;
      continue;
    }
    return { kind: 'usage-error', message: `unknown debug app-server inspect argument: ${arg}` };
  }
  return { kind: 'debug-inspect', port: port ?? 0, open };
}

const HELP_TOPICS: readonly HelpTopic[] = ['app-server', 'acp', 'native-host'];

function isHelpTopic(command: string | undefined): command is HelpTopic {
  return (HELP_TOPICS as readonly (string | undefined)[]).includes(command);
}

/** `argv` = the arguments after the executable (process.argv.slice(2)). */
export function parseCommandLine(argv: readonly string[]): CliInvocation {
  const [command, ...rest] = argv;
  if (argv.some((arg) => arg === '--help' || arg === '-h'))
    return isHelpTopic(command) ? { kind: 'help', command } : { kind: 'help' };
  if (command === '--version' || command === '-V') return { kind: 'version' };
  if (command === undefined) return { kind: 'usage-error', message: 'missing command' };
  if (command === 'app-server') {
    if (rest[0] === 'schema' || rest[0] === 'generate-ts') return parseSchemaCommand(rest[0], rest.slice(1));
    const parsed = parseListenOptions(rest);
    return 'error' in parsed
      ? { kind: 'usage-error', message: parsed.error }
      : { kind: 'listen', options: parsed.options };
  }
  if (command === 'debug') return parseDebugCommand(rest);
  if (command === 'native-host') {
    const parsed = parseNativeHostCommand(rest);
    return 'error' in parsed
      ? { kind: 'usage-error', message: parsed.error }
      : { kind: 'native-host', request: parsed.request };
  }
  if (command === 'acp') {
    const parsed = parseAcpOptions(rest);
    return 'error' in parsed
      ? { kind: 'usage-error', message: parsed.error }
      : { kind: 'acp', options: parsed.options };
  }
  return { kind: 'usage-error', message: `unknown command: ${command}` };
}
