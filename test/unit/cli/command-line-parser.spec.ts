import { parseCommandLine } from '../../../src/cli/command-line-parser';
import type { CliInvocation } from '../../../src/cli/cli-invocation';

const BASE = ['app-server', '--listen', 'stdio', '--settings', 's.json', '--backend', 'b', '--model', 'm'];
const NATIVE = [
  'app-server',
  '--listen',
  'native-messaging',
  '--settings',
  's.json',
  '--backend',
  'b',
  '--model',
  'm',
];
/** docs/spec/protocol.md §12.2 v1.1. */
const INVALID_LISTEN = 'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT';

function usage(message: string): CliInvocation {
  return { kind: 'usage-error', message };
}

describe('parseCommandLine: dispatch (docs/spec/protocol.md §12.1)', () => {
  it.each<[string[], CliInvocation]>([
    [[], usage('missing command')],
    [['serve'], usage('unknown command: serve')],
    [['--listen'], usage('unknown command: --listen')],
    [['--help'], { kind: 'help' }],
    [['-h'], { kind: 'help' }],
    [['app-server', '--bogus', '-h'], { kind: 'help', command: 'app-server' }],
    [['native-host', '--help'], { kind: 'help', command: 'native-host' }],
    [['debug', 'x', '--help'], { kind: 'help' }],
    [['--version', '--help'], { kind: 'help' }],
    [['--version'], { kind: 'version' }],
    [['-V'], { kind: 'version' }],
    [['app-server', '--version'], usage('unknown app-server argument: --version')],
    [['app-server', 'schema', '--out', 'dir'], { kind: 'schema', out: 'dir' }],
    [['app-server', 'generate-ts', '--out', 'd/ts'], { kind: 'generate-ts', out: 'd/ts' }],
    [['app-server', 'schema'], usage('app-server schema requires --out <dir>')],
    [['app-server', 'schema', '--out'], usage('app-server schema requires --out <dir>')],
    [['app-server', 'schema', '--out=dir'], usage('app-server schema requires --out <dir>')],
    [['app-server', 'schema', '--out', '  '], usage('app-server schema requires --out <dir>')],
    [['app-server', 'schema', '--out', '--x'], usage('app-server schema requires --out <dir>')],
    [['app-server', 'schema', '--out', 'd', 'extra'], usage('app-server schema requires --out <dir>')],
    [['app-server', 'generate-ts', 'd'], usage('app-server generate-ts requires --out <dir>')],
    [
      ['debug', 'app-server', 'send-message', 'hello', 'world'],
      { kind: 'debug-send-message', message: 'hello world' },
    ],
    [['debug', 'app-server', 'send-message'], usage('debug app-server send-message requires a message')],
    [['debug', 'app-server'], usage('unknown debug command')],
    [['debug'], usage('unknown debug command')],
    [['debug', 'other', 'send-message', 'x'], usage('unknown debug command')],
  ])('%j', (argv, expected) => {
    expect(parseCommandLine(argv)).toEqual(expected);
  });
});

describe('parseCommandLine: app-server listen options (docs/spec/protocol.md §12.2)', () => {
  it('applies the defaults', () => {
    expect(parseCommandLine(BASE)).toEqual({
      kind: 'listen',
      options: {
        listen: 'stdio',
        settings: 's.json',
        backend: 'b',
        model: 'm',
        timeoutSeconds: 90,
        store: null,
        approvalPolicy: 'on-request',
        approvalTimeoutSeconds: 30,
        maxMessageBytes: 16777216,
        mcpConfig: null,
        sandbox: { mode: 'workspace-write', network: false, writableRoots: [], denyRead: [] },
      },
    });
  });

  it('accepts options in any order and the --flag=value form', () => {
    const parsed = parseCommandLine([
      'app-server',
      '--model=m',
      '--store',
      ':memory:',
      '--approval-policy=untrusted',
      '--timeout-seconds',
      '2.5e1',
      '--backend',
      'b',
      '--approval-timeout-seconds=.5',
      '--max-message-bytes',
      '64',
      '--settings=a=b.json',
      '--mcp-config=servers.json',
      '--listen=stdio',
    ]);
    expect(parsed).toEqual({
      kind: 'listen',
      options: {
        listen: 'stdio',
        settings: 'a=b.json',
        backend: 'b',
        model: 'm',
        timeoutSeconds: 25,
        store: ':memory:',
        approvalPolicy: 'untrusted',
        approvalTimeoutSeconds: 0.5,
        maxMessageBytes: 64,
        mcpConfig: 'servers.json',
        sandbox: { mode: 'workspace-write', network: false, writableRoots: [], denyRead: [] },
      },
    });
  });

  it.each<[string[], string]>([
    [['app-server'], 'app-server requires --listen, --settings, --backend, --model'],
    [['app-server', '--listen', 'stdio'], 'app-server requires --settings, --backend, --model'],
    [['app-server', '--model', 'm', '--listen', 'stdio'], 'app-server requires --settings, --backend'],
    [['app-server', '--listen', 'tcp'], INVALID_LISTEN],
    [['app-server', '--listen', 'Native-Messaging'], INVALID_LISTEN],
    [['app-server', '--listen'], '--listen requires a value'],
    [['app-server', '--listen', '--settings', 's'], '--listen requires a value'],
    [['app-server', '--listen='], '--listen requires a value'],
    [['app-server', '--settings', '   '], '--settings requires a value'],
    [['app-server', '--listen', 'stdio', '--listen=stdio'], 'duplicate app-server argument: --listen'],
    [
      ['app-server', '--mcp-config', 'a.json', '--mcp-config=b.json'],
      'duplicate app-server argument: --mcp-config',
    ],
    [['app-server', 'trailing'], 'unknown app-server argument: trailing'],
    [['app-server', '--workspace=/x'], 'unknown app-server argument: --workspace'],
    [['app-server', '-x'], 'unknown app-server argument: -x'],
    [[...BASE, '--timeout-seconds', '0'], '--timeout-seconds must be a finite positive number'],
    [[...BASE, '--timeout-seconds', '-1'], '--timeout-seconds must be a finite positive number'],
    [[...BASE, '--timeout-seconds', 'abc'], '--timeout-seconds must be a finite positive number'],
    [[...BASE, '--timeout-seconds', '1e999'], '--timeout-seconds must be a finite positive number'],
    [[...BASE, '--timeout-seconds', 'Infinity'], '--timeout-seconds must be a finite positive number'],
    [
      [...BASE, '--approval-timeout-seconds', '0x10'],
      '--approval-timeout-seconds must be a finite positive number',
    ],
    [
      [...BASE, '--approval-policy', 'ALWAYS'],
      '--approval-policy must be one of: on-request, untrusted, never',
    ],
    [[...BASE, '--max-message-bytes', '0'], '--max-message-bytes must be a positive integer'],
    [[...BASE, '--max-message-bytes', '1.5'], '--max-message-bytes must be a positive integer'],
    [[...BASE, '--max-message-bytes', '9007199254740992'], '--max-message-bytes must be a positive integer'],
    // The first error wins, left to right.
    [['app-server', '--bogus', '--listen', 'tcp'], 'unknown app-server argument: --bogus'],
    [['app-server', '--listen', 'tcp', '--bogus'], INVALID_LISTEN],
    [
      [...BASE, '--native-caller', 'chrome-extension://x/'],
      '--native-caller requires --listen native-messaging',
    ],
    [[...BASE, '--native-allowed-callers=a'], '--native-allowed-callers requires --listen native-messaging'],
    [[...NATIVE, '--native-caller'], '--native-caller requires a value'],
    [
      [...NATIVE, '--native-caller', 'a', '--native-caller=b'],
      'duplicate app-server argument: --native-caller',
    ],
  ])('%j → %s', (argv, message) => {
    expect(parseCommandLine(argv)).toEqual(usage(message));
  });

  it('accepts --listen native-messaging with the caller and allow-list the launcher passes (docs/spec/native-messaging.md §1)', () => {
    const parsed = parseCommandLine([
      ...NATIVE,
      '--native-allowed-callers',
      'chrome-extension://abc/,chrome-extension://def/',
      '--native-caller=chrome-extension://abc/',
    ]);
    expect(parsed).toEqual({
      kind: 'listen',
      options: expect.objectContaining({
        listen: 'native-messaging',
        nativeCaller: 'chrome-extension://abc/',
        nativeAllowedCallers: ['chrome-extension://abc/', 'chrome-extension://def/'],
      }),
    });
    // A browser that names no caller: the launcher forwards it empty, for the caller check to refuse.
    for (const empty of [
      [...NATIVE, '--native-caller='],
      [...NATIVE, '--native-caller', ''],
    ]) {
      const parsed = parseCommandLine(empty);
      expect(parsed.kind === 'listen' && parsed.options.nativeCaller).toBe('');
    }
    const bare = parseCommandLine(NATIVE);
    expect(bare.kind === 'listen' && bare.options).toEqual(
      expect.objectContaining({ listen: 'native-messaging', maxMessageBytes: 16777216 }),
    );
    expect(bare.kind === 'listen' && 'nativeCaller' in bare.options).toBe(false);
  });

  it('accepts the largest safe integer for --max-message-bytes', () => {
    const parsed = parseCommandLine([...BASE, '--max-message-bytes', '9007199254740991']);
    expect(parsed.kind === 'listen' && parsed.options.maxMessageBytes).toBe(9007199254740991);
  });
});

describe('parseCommandLine: WebSocket listen options (docs/spec/websocket.md §1)', () => {
  const REST = ['--settings', 's.json', '--backend', 'b', '--model', 'm'];
  const ws = (listen: string, ...extra: string[]) => ['app-server', '--listen', listen, ...REST, ...extra];
  const websocketOf = (argv: string[]) => {
    const parsed = parseCommandLine(argv);
    if (parsed.kind !== 'listen') throw new Error(JSON.stringify(parsed));
    return { listen: parsed.options.listen, websocket: parsed.options.websocket };
  };

  it.each<[string, { host: string; bindHost: string; port: number }]>([
    ['ws://127.0.0.1:0', { host: '127.0.0.1', bindHost: '127.0.0.1', port: 0 }],
    ['ws://localhost:8080', { host: 'localhost', bindHost: 'localhost', port: 8080 }],
    ['ws://[::1]:65535', { host: '[::1]', bindHost: '::1', port: 65535 }],
    ['ws://0.0.0.0:7000', { host: '0.0.0.0', bindHost: '0.0.0.0', port: 7000 }],
  ])('%s with a token file', (listen, address) => {
    expect(websocketOf(ws(listen, '--ws-token-file', 't.txt'))).toEqual({
      listen: 'ws',
      websocket: { address, tokenFile: 't.txt', noAuth: false, allowedOrigins: [] },
    });
  });

  it('collects --ws-allow-origin in order and takes --ws-no-auth without a value', () => {
    expect(
      websocketOf(
        ws(
          'ws://127.0.0.2:1',
          '--ws-allow-origin',
          'chrome-extension://abc',
          '--ws-no-auth',
          '--ws-allow-origin=http://localhost:5173',
        ),
      ),
    ).toEqual({
      listen: 'ws',
      websocket: {
        address: { host: '127.0.0.2', bindHost: '127.0.0.2', port: 1 },
        tokenFile: null,
        noAuth: true,
        allowedOrigins: ['chrome-extension://abc', 'http://localhost:5173'],
      },
    });
  });

  it('stdio has no websocket options; native-messaging is a valid --listen value', () => {
    expect(websocketOf(BASE)).toEqual({ listen: 'stdio', websocket: undefined });
    expect(websocketOf(ws('native-messaging'))).toEqual({ listen: 'native-messaging', websocket: undefined });
  });

  const INVALID = 'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT';
  it.each<[string[], string]>([
    [ws('ws://127.0.0.1'), INVALID],
    [ws('ws://127.0.0.1:65536'), INVALID],
    [ws('ws://127.0.0.1:-1'), INVALID],
    [ws('ws://256.0.0.1:80'), INVALID],
    [ws('ws://example.com:80'), INVALID],
    [ws('ws://[::1:80'), INVALID],
    [ws('ws://[nothex]:80'), INVALID],
    [ws('ws://127.0.0.1:80/'), INVALID],
    [ws('wss://127.0.0.1:80'), INVALID],
    [ws('ws://0.0.0.0:0', '--ws-no-auth'), '--ws-no-auth is only allowed on a loopback address'],
    [ws('ws://[::]:0', '--ws-no-auth'), '--ws-no-auth is only allowed on a loopback address'],
    [
      ws('ws://192.168.1.2:0', '--ws-no-auth', '--ws-token-file', 't'),
      '--ws-no-auth is only allowed on a loopback address',
    ],
    [
      ws('ws://127.0.0.1:0'),
      '--listen ws:// requires --ws-token-file (or --ws-no-auth on a loopback address)',
    ],
    [
      ws('ws://127.0.0.1:0', '--ws-allow-origin', 'x'),
      '--listen ws:// requires --ws-token-file (or --ws-no-auth on a loopback address)',
    ],
    [[...BASE, '--ws-no-auth'], '--ws-* options require --listen ws://HOST:PORT'],
    [[...BASE, '--ws-token-file', 't'], '--ws-* options require --listen ws://HOST:PORT'],
    [[...BASE, '--ws-allow-origin', 'o'], '--ws-* options require --listen ws://HOST:PORT'],
    [ws('ws://127.0.0.1:0', '--ws-no-auth', '--ws-no-auth'), 'duplicate app-server argument: --ws-no-auth'],
    [ws('ws://127.0.0.1:0', '--ws-no-auth=yes'), '--ws-no-auth takes no value'],
    [ws('ws://127.0.0.1:0', '--ws-token-file'), '--ws-token-file requires a value'],
    [ws('ws://127.0.0.1:0', '--ws-allow-origin'), '--ws-allow-origin requires a value'],
  ])('%j → %s', (argv, message) => {
    expect(parseCommandLine(argv)).toEqual(usage(message));
  });
});
