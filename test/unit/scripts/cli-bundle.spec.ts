/** The CLI bundle's source transforms (scripts/cli-bundle): each must leave behaviour unchanged. */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runInThisContext } from 'node:vm';
import { escapeNonAscii } from '../../../scripts/cli-bundle/ascii-escape';
import {
  deferTimestampFormat,
  NEST_LOGGER_MODULES,
} from '../../../scripts/cli-bundle/deferred-timestamp-format';

describe('escapeNonAscii', () => {
  // Evaluated as code, so each case checks what the escaped text means, not only how it looks.
  const evaluate = (code: string): unknown => runInThisContext(code);
  const cases: Array<[string, string]> = [
    ['a string', "'café — ok'"],
    ['a regular expression', "['éü—', 'ë—', 'a—', 'é-'].map((text) => /^[é-ü]+—$/.test(text))"],
    ['an identity escape in a regular expression', "/\\é/.test('é')"],
    ['an escaped backslash before the character', "/\\\\é/.test('\\\\é')"],
    ['a character outside the BMP (u flag)', "/^😀$/u.test('😀')"],
    ['a template literal', '`naïve ${1 + 1}`'],
    ['a comment', '1 /* ünïcode */ + 1'],
  ];
  it.each(cases)('%s: ASCII out, same value', (_name, code) => {
    const escaped = escapeNonAscii(code);
    expect(/^[ -~\t\n\r]*$/.test(escaped)).toBe(true);
    expect(evaluate(escaped)).toEqual(evaluate(code));
  });
});

describe('deferTimestampFormat (Nest logger modules)', () => {
  const modules = ['console-logger', 'logger'].map((name) =>
    require.resolve(`@nestjs/common/services/${name}.service.js`),
  );

  const NEST_COMMON = dirname(require.resolve('@nestjs/common/package.json'));

  /**
   * Loads a module of @nestjs/common as the bundle has it: every module of the package loaded by this
   * loader, the two logger modules transformed. Compiled in the test's realm, so the modules see the
   * test's Date and Intl.
   */
  function loadAsBundled(path: string, loaded = new Map<string, { exports: unknown }>()): unknown {
    const known = loaded.get(path);
    if (known !== undefined) return known.exports;
    const module = { exports: {} as unknown };
    loaded.set(path, module);
    const requireFrom = (id: string): unknown => {
      const resolved = require.resolve(id, { paths: [dirname(path)] });
      return resolved.startsWith(NEST_COMMON) && resolved.endsWith('.js')
        ? loadAsBundled(resolved, loaded)
        : // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module loader by design
          require(resolved);
    };
    const source = readFileSync(path, 'utf8');
    const body = NEST_LOGGER_MODULES.test(path) ? deferTimestampFormat(source, path) : source;
    new Function('exports', 'require', 'module', '__filename', '__dirname', body)(
      module.exports,
      requireFrom,
      module,
      path,
      dirname(path),
    );
    return module.exports;
  }

  it('matches both installed modules by path', () => {
    for (const path of modules) expect(NEST_LOGGER_MODULES.test(path)).toBe(true);
  });

  it('the deferred ConsoleLogger prints the same timestamp as the original', async () => {
    const now = Date.UTC(2026, 11, 3, 12, 34, 56);
    jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      type WithTimestamp = { getTimestamp(): string };
      type LoggerClass = new () => WithTimestamp;
      const original = new ((await import(modules[0])) as { ConsoleLogger: LoggerClass }).ConsoleLogger();
      const deferred = new (
        (loadAsBundled(modules[0]) as Record<string, unknown>).ConsoleLogger as LoggerClass
      )();
      expect(deferred.getTimestamp()).toBe(original.getTimestamp());
      expect(deferred.getTimestamp()).toBe(
        new Intl.DateTimeFormat(undefined, {
          year: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
          day: '2-digit',
          month: '2-digit',
        }).format(now),
      );
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('@nestjs/common, loaded as bundled, builds no Intl.DateTimeFormat', () => {
    const spy = jest.spyOn(Intl, 'DateTimeFormat');
    try {
      loadAsBundled(require.resolve('@nestjs/common'));
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a module whose statement is not there exactly once', () => {
    expect(() => deferTimestampFormat('const x = 1;', 'x.js')).toThrow(
      'x.js: expected one `const dateTimeFormatter = new Intl.DateTimeFormat(undefined, {` statement, found 0',
    );
  });
});
