import { parseCommandLine } from '../../../src/cli/command-line-parser';
import type { CliInvocation, ListenOptions } from '../../../src/cli/cli-invocation';

const REQUIRED = ['--settings', 's.json', '--backend', 'b', '--model', 'm'];
const DEFAULTS: ListenOptions = {
  listen: 'stdio',
  settings: 's.json',
  backend: 'b',
  model: 'm',
  timeoutSeconds: 90,
  store: null,
  approvalPolicy: 'on-request',
  approvalTimeoutSeconds: 30,
  maxMessageBytes: 16_777_216,
  mcpConfig: null,
  sandbox: { mode: 'workspace-write', network: false, writableRoots: [], denyRead: [] },
};

function usage(message: string): CliInvocation {
  return { kind: 'usage-error', message };
}

describe('parseCommandLine: acp (docs/spec/acp.md §1: the app-server options, minus --listen)', () => {
  it.each<[string[], CliInvocation]>([
    [['acp', ...REQUIRED], { kind: 'acp', options: DEFAULTS }],
    [
      [
        'acp',
        ...REQUIRED,
        '--store',
        ':memory:',
        '--approval-policy=untrusted',
        '--approval-timeout-seconds',
        '5',
        '--timeout-seconds',
        '12.5',
        '--mcp-config',
        'mcp.json',
      ],
      {
        kind: 'acp',
        options: {
          ...DEFAULTS,
          store: ':memory:',
          approvalPolicy: 'untrusted',
          approvalTimeoutSeconds: 5,
          timeoutSeconds: 12.5,
          mcpConfig: 'mcp.json',
          sandbox: { mode: 'workspace-write', network: false, writableRoots: [], denyRead: [] },
        },
      },
    ],
    [['acp'], usage('acp requires --settings, --backend, --model')],
    [['acp', '--settings', 's.json'], usage('acp requires --backend, --model')],
    [['acp', ...REQUIRED, '--listen', 'stdio'], usage('unknown acp argument: --listen')],
    [['acp', ...REQUIRED, '--listen=stdio'], usage('unknown acp argument: --listen')],
    [['acp', ...REQUIRED, '--bogus'], usage('unknown acp argument: --bogus')],
    [['acp', ...REQUIRED, 'extra'], usage('unknown acp argument: extra')],
    [['acp', ...REQUIRED, '--model', 'x'], usage('duplicate acp argument: --model')],
    [
      ['acp', ...REQUIRED, '--approval-policy', 'sometimes'],
      usage('--approval-policy must be one of: on-request, untrusted, never'),
    ],
    [['acp', ...REQUIRED, '--store'], usage('--store requires a value')],
    [['acp', '--help'], { kind: 'help', command: 'acp' }],
  ])('%j', (argv, expected) => {
    expect(parseCommandLine(argv)).toEqual(expected);
  });
});
