import { parseCommandLine } from '../../../../src/cli/command-line-parser';
import type { CliInvocation } from '../../../../src/cli/cli-invocation';

const CHROME_ID = 'knldjmfmopnpolahpmmgbagdohdnhkik';
const INSTALL = [
  'native-host',
  'install',
  '--browser',
  'chromium',
  '--extension-id',
  CHROME_ID,
  '--settings',
  's.json',
  '--backend',
  'b',
  '--model',
  'm',
];

const usage = (message: string): CliInvocation => ({ kind: 'usage-error', message });

describe('parseCommandLine: native-host (docs/spec/native-messaging.md §2)', () => {
  it('parses install with its defaults', () => {
    expect(parseCommandLine(INSTALL)).toEqual({
      kind: 'native-host',
      request: {
        action: 'install',
        browser: 'chromium',
        extensionId: CHROME_ID,
        name: 'com.vv_agent.app_server',
        userDataDir: null,
        settings: 's.json',
        backend: 'b',
        model: 'm',
        store: null,
        approvalPolicy: null,
        sandbox: null,
      },
    });
  });

  it('parses every install option, in both forms', () => {
    const parsed = parseCommandLine([
      ...INSTALL,
      '--name=org.example.agent_host',
      '--store',
      'threads.sqlite',
      '--approval-policy=untrusted',
      '--user-data-dir',
      '/tmp/profile',
    ]);
    expect(parsed).toEqual({
      kind: 'native-host',
      request: expect.objectContaining({
        name: 'org.example.agent_host',
        store: 'threads.sqlite',
        approvalPolicy: 'untrusted',
        sandbox: null,
        userDataDir: '/tmp/profile',
      }),
    });
  });

  it('takes Firefox extension ids as given', () => {
    const parsed = parseCommandLine([
      ...INSTALL.slice(0, 3),
      'firefox',
      '--extension-id',
      'agent@example.org',
      ...INSTALL.slice(6),
    ]);
    expect(parsed).toEqual({
      kind: 'native-host',
      request: expect.objectContaining({ browser: 'firefox', extensionId: 'agent@example.org' }),
    });
  });

  it('parses uninstall and status', () => {
    expect(parseCommandLine(['native-host', 'uninstall', '--browser', 'edge'])).toEqual({
      kind: 'native-host',
      request: { action: 'uninstall', browser: 'edge', name: 'com.vv_agent.app_server', userDataDir: null },
    });
    expect(parseCommandLine(['native-host', 'uninstall', '--browser=chrome', '--name', 'a.b'])).toEqual({
      kind: 'native-host',
      request: { action: 'uninstall', browser: 'chrome', name: 'a.b', userDataDir: null },
    });
    expect(parseCommandLine(['native-host', 'status'])).toEqual({
      kind: 'native-host',
      request: { action: 'status', browser: null, userDataDir: null },
    });
    expect(
      parseCommandLine(['native-host', 'status', '--browser', 'chromium', '--user-data-dir', 'p']),
    ).toEqual({
      kind: 'native-host',
      request: { action: 'status', browser: 'chromium', userDataDir: 'p' },
    });
  });

  it.each<[string[], string]>([
    [['native-host'], 'native-host requires install, uninstall or status'],
    [['native-host', 'list'], 'unknown native-host command: list'],
    [
      ['native-host', 'install'],
      'native-host install requires --browser, --extension-id, --settings, --backend, --model',
    ],
    [
      ['native-host', 'install', '--browser', 'safari'],
      '--browser must be one of: chrome, chromium, edge, firefox',
    ],
    [['native-host', 'uninstall'], 'native-host uninstall requires --browser'],
    [
      ['native-host', 'uninstall', '--browser', 'chrome', '--extension-id', 'x'],
      'unknown native-host argument: --extension-id',
    ],
    [['native-host', 'status', 'extra'], 'unknown native-host argument: extra'],
    [['native-host', 'status', '--browser'], '--browser requires a value'],
    [
      ['native-host', 'status', '--browser', 'chrome', '--browser=edge'],
      'duplicate native-host argument: --browser',
    ],
    // Names the browsers reject.
    ...[
      'Com.Example',
      'com-example',
      'com..example',
      '.com.example',
      'com.example.',
      'com example',
      'com/example',
      'é',
    ].map((name): [string[], string] => [
      [...INSTALL, '--name', name],
      `invalid --name: ${name} (browsers accept lower-case letters, digits, "_" and "." only, dot-separated)`,
    ]),
    // Chromium extension ids are 32 letters a-p.
    ...['abc', 'q'.repeat(32), 'A'.repeat(32), `${CHROME_ID}x`].map((id): [string[], string] => [
      [...INSTALL.slice(0, 5), id, ...INSTALL.slice(6)],
      'invalid --extension-id for chromium: expected 32 letters a-p',
    ]),
    [
      [...INSTALL.slice(0, 3), 'firefox', ...INSTALL.slice(4), '--user-data-dir', '/p'],
      '--user-data-dir applies to chrome, chromium and edge only',
    ],
    [
      ['native-host', 'status', '--user-data-dir', '/p'],
      '--user-data-dir requires --browser chrome, chromium or edge',
    ],
    [
      [...INSTALL, '--approval-policy', 'always'],
      '--approval-policy must be one of: on-request, untrusted, never',
    ],
  ])('%j → %s', (argv, message) => {
    expect(parseCommandLine(argv)).toEqual(usage(message));
  });
});
