/** The option grammar the CLI's commands share (docs/spec/protocol.md §12.2). */
import { parseFlagArguments, type FlagGrammar } from '../../../src/cli/flag-arguments';

const GRAMMAR: FlagGrammar<number | string> = {
  command: 'demo',
  valueFlags: ['--name', '--count', '--caller'],
  parseValue: (flag, raw) =>
    flag !== '--count'
      ? { value: raw }
      : /^\d+$/.test(raw)
        ? { value: Number(raw) }
        : { error: '--count must be a number' },
  switches: ['--quiet'],
  repeatable: ['--tag'],
  emptyAllowed: ['--caller'],
};

describe('parseFlagArguments', () => {
  it('reads `--flag value`, `--flag=value`, switches and repeated flags in order', () => {
    const parsed = parseFlagArguments(
      ['--name', 'a', '--count=3', '--quiet', '--tag', 'x', '--tag=y', '--caller='],
      GRAMMAR,
    );
    expect(parsed).toEqual({
      values: new Map<string, number | string>([
        ['--name', 'a'],
        ['--count', 3],
        ['--caller', ''],
      ]),
      switches: new Set(['--quiet']),
      repeated: new Map([['--tag', ['x', 'y']]]),
    });
  });

  it.each([
    [['stray'], 'unknown demo argument: stray'],
    [['--other', 'a'], 'unknown demo argument: --other'],
    [['--name', 'a', '--name=b'], 'duplicate demo argument: --name'],
    [['--quiet', '--quiet'], 'duplicate demo argument: --quiet'],
    [['--quiet=yes'], '--quiet takes no value'],
    [['--name', '--count', '1'], '--name requires a value'],
    [['--name=  '], '--name requires a value'],
    [['--caller', ' '], '--caller requires a value'],
    [['--tag'], '--tag requires a value'],
    [['--count', 'many', 'stray'], '--count must be a number'],
  ])('refuses %j with the first error: %s', (args, error) => {
    expect(parseFlagArguments(args, GRAMMAR)).toEqual({ error });
  });
});
