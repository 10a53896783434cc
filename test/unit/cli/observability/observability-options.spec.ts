/** The observability options of `app-server` (docs/spec/observability.md §1, §4). */
import { parseCommandLine } from '../../../../src/cli/command-line-parser';
import type { ListenOptions } from '../../../../src/cli/cli-invocation';

const BASE = ['app-server', '--listen', 'stdio', '--settings', 's.json', '--backend', 'b', '--model', 'm'];

function listen(...extra: string[]): ListenOptions | string {
  const invocation = parseCommandLine([...BASE, ...extra]);
  if (invocation.kind === 'usage-error') return invocation.message;
  if (invocation.kind !== 'listen') throw new Error(`unexpected ${invocation.kind}`);
  return invocation.options;
}

describe('--metrics-listen, --metrics-allow-remote, --log-format, --log-level', () => {
  it('leaves the options without an observability member when none is given', () => {
    expect(listen()).not.toHaveProperty('observability');
  });

  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
  ])('accepts the loopback address %s', (address, metricsListen) => {
    expect(listen('--metrics-listen', address)).toMatchObject({
      observability: { metricsListen, logFormat: 'text', logLevel: null },
    });
  });

  it('refuses a non-loopback address unless --metrics-allow-remote', () => {
    expect(listen('--metrics-listen', '0.0.0.0:9464')).toBe(
      '--metrics-listen requires a loopback address unless --metrics-allow-remote',
    );
    expect(listen('--metrics-listen=0.0.0.0:9464', '--metrics-allow-remote')).toMatchObject({
      observability: { metricsListen: { host: '0.0.0.0', port: 9464 } },
    });
  });

  it.each([['9464'], ['host:1'], ['127.0.0.1:70000'], ['127.0.0.1']])('refuses %s', (address) => {
    expect(listen('--metrics-listen', address)).toBe('--metrics-listen must be HOST:PORT');
  });

  it('parses the log options and refuses other values', () => {
    expect(listen('--log-format', 'json', '--log-level', 'debug')).toMatchObject({
      observability: { metricsListen: null, logFormat: 'json', logLevel: 'debug' },
    });
    expect(listen('--log-format', 'xml')).toBe('--log-format must be one of: text, json');
    expect(listen('--log-level', 'trace')).toBe('--log-level must be one of: debug, info, warn, error');
    expect(listen('--log-level', 'info', '--log-level', 'warn')).toBe(
      'duplicate app-server argument: --log-level',
    );
    expect(listen('--metrics-allow-remote=yes')).toBe('--metrics-allow-remote takes no value');
  });

  it('keeps --ws-* checks apart from --metrics-allow-remote', () => {
    expect(listen('--metrics-allow-remote')).toMatchObject({ listen: 'stdio' });
  });
});
