import { logLevelsFor, StderrLogger } from '../../../src/nest/stderr-logger';

describe('StderrLogger', () => {
  it.each([
    [undefined, ['fatal', 'error', 'warn']],
    ['', ['fatal', 'error', 'warn']],
    ['nonsense', ['fatal', 'error', 'warn']],
    ['error', ['fatal', 'error']],
    [' DEBUG ', ['fatal', 'error', 'warn', 'log', 'debug']],
  ])('VV_AGENT_LOG_LEVEL=%j enables %j', (threshold, levels) => {
    expect(logLevelsFor(threshold)).toEqual(levels);
  });

  it('writes every level to stderr, never stdout', () => {
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const logger = new StderrLogger('Test', { logLevels: ['log', 'warn', 'error', 'debug'] });
      logger.log('hello');
      logger.warn('careful');
      logger.debug('details');
      expect(stdout).not.toHaveBeenCalled();
      expect(stderr.mock.calls.map(([chunk]) => String(chunk)).join('')).toMatch(
        /hello[\s\S]*careful[\s\S]*details/,
      );
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
  });
});
