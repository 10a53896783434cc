/** `--inspector` and `debug app-server inspect` on the command line (docs/spec/inspector.md §1). */
import { parseCommandLine } from '../../../src/cli/command-line-parser';
import { HELP_TEXT } from '../../../src/cli/help-text';

const SERVER = ['app-server', '--settings', 's.json', '--backend', 'b', '--model', 'm'];

describe('--inspector', () => {
  it('is a switch of the WebSocket listener', () => {
    const parsed = parseCommandLine([
      ...SERVER,
      '--listen',
      'ws://127.0.0.1:0',
      '--ws-no-auth',
      '--inspector',
    ]);
    expect(parsed.kind === 'listen' && parsed.options.websocket?.inspector).toBe(true);
    const without = parseCommandLine([...SERVER, '--listen', 'ws://127.0.0.1:0', '--ws-no-auth']);
    expect(without.kind === 'listen' && without.options.websocket?.inspector).toBeUndefined();
  });

  it.each([
    [['--listen', 'stdio', '--inspector'], '--inspector requires --listen ws://HOST:PORT'],
    [['--listen', 'ws://127.0.0.1:0', '--ws-no-auth', '--inspector=1'], '--inspector takes no value'],
    [
      ['--listen', 'ws://127.0.0.1:0', '--ws-no-auth', '--inspector', '--inspector'],
      'duplicate app-server argument: --inspector',
    ],
  ])('%j → %s', (args, message) => {
    expect(parseCommandLine([...SERVER, ...args])).toEqual({ kind: 'usage-error', message });
  });
});

describe('debug app-server inspect', () => {
  it.each<[string[], unknown]>([
    [[], { kind: 'debug-inspect', port: 0, open: false }],
    [['--port', '8123'], { kind: 'debug-inspect', port: 8123, open: false }],
    [['--port=0', '--open'], { kind: 'debug-inspect', port: 0, open: true }],
    [['--open', '--port', '65535'], { kind: 'debug-inspect', port: 65535, open: true }],
    [['--port', '65536'], { kind: 'usage-error', message: '--port must be an integer from 0 to 65535' }],
    [['--port'], { kind: 'usage-error', message: '--port must be an integer from 0 to 65535' }],
    [['--port', 'x'], { kind: 'usage-error', message: '--port must be an integer from 0 to 65535' }],
    [
      ['--open', '--open'],
      { kind: 'usage-error', message: 'unknown debug app-server inspect argument: --open' },
    ],
    [['extra'], { kind: 'usage-error', message: 'unknown debug app-server inspect argument: extra' }],
  ])('%j', (args, expected) => {
    expect(parseCommandLine(['debug', 'app-server', 'inspect', ...args])).toEqual(expected);
  });

  it('is listed by --help with the --inspector option', () => {
    expect(HELP_TEXT).toContain('  vv-agent debug app-server inspect [--port <n>] [--open]\n');
    expect(HELP_TEXT).toMatch(/\n {2}--inspector {2,}WebSocket: serve the inspector page at \/inspector\/\n/);
  });
});
