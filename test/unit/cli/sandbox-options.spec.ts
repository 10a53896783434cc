/** `--sandbox*` options (docs/spec/sandbox.md §1, §2) on app-server and acp. */
import { parseCommandLine } from '../../../src/cli/command-line-parser';

const BASE = ['app-server', '--listen', 'stdio', '--settings', 's.json', '--backend', 'b', '--model', 'm'];

function sandboxOf(args: string[]): unknown {
  const parsed = parseCommandLine([...BASE, ...args]);
  return parsed.kind === 'listen' ? parsed.options.sandbox : parsed;
}

describe('sandbox options', () => {
  it('defaults to workspace-write without network, extra roots or deny list', () => {
    expect(sandboxOf([])).toEqual({
      mode: 'workspace-write',
      network: false,
      writableRoots: [],
      denyRead: [],
    });
  });

  it('collects repeatable roots and deny paths in order', () => {
    expect(
      sandboxOf([
        '--sandbox=read-only',
        '--sandbox-network',
        '--sandbox-writable-root',
        '/a',
        '--sandbox-writable-root=/b',
        '--sandbox-deny-read',
        '/secret',
      ]),
    ).toEqual({ mode: 'read-only', network: true, writableRoots: ['/a', '/b'], denyRead: ['/secret'] });
  });

  it.each([
    [['--sandbox', 'open'], '--sandbox must be one of: read-only, workspace-write, danger-full-access'],
    [['--sandbox', 'read-only', '--sandbox', 'read-only'], 'duplicate app-server argument: --sandbox'],
    [['--sandbox-network=yes'], '--sandbox-network takes no value'],
    [['--sandbox-writable-root'], '--sandbox-writable-root requires a value'],
  ])('%j → %s', (args, message) => {
    expect(parseCommandLine([...BASE, ...args])).toEqual({ kind: 'usage-error', message });
  });

  it('acp takes them too', () => {
    const parsed = parseCommandLine([
      'acp',
      '--settings',
      's',
      '--backend',
      'b',
      '--model',
      'm',
      '--sandbox',
      'read-only',
    ]);
    expect(parsed.kind === 'acp' && parsed.options.sandbox.mode).toBe('read-only');
  });
});
