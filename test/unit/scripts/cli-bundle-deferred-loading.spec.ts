/**
 * The CLI bundle's deferred-loading transforms (scripts/cli-bundle): each module they rewrite must
 * export the same names with the same values, and load what it re-exports or requires only when
 * that is first used.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import {
  deferRequires,
  deferredRequires,
  TYPEORM_DEFERRED_REQUIRES,
} from '../../../scripts/cli-bundle/deferred-requires';
import {
  CLASS_VALIDATOR_DECORATORS,
  lazyReexports,
  lazyReexportsOf,
  NEST_INDEXES,
  RXJS_INDEXES,
  TYPEORM_INDEX,
} from '../../../scripts/cli-bundle/lazy-reexports';
import {
  exportNames,
  INQUIRER,
  PHONE_NUMBER_METADATA,
  type StandIn,
  standInErrors,
  standIns,
  standInSource,
  UNUSED_TYPEORM_DRIVERS,
} from '../../../scripts/cli-bundle/stand-ins';

type Exports = Record<string, unknown>;

/** The real modules, as Node loads them, to compare the transformed ones with. */
const loadReal = createRequire(__filename);

/**
 * Evaluates `source` as the module at `path`; its own `require` calls go to Node's loader (so they
 * share the real modules) and are recorded in `required`.
 */
function evaluate(source: string, path: string, required: string[] = []): Exports {
  const realRequire = createRequire(path);
  const module = { exports: {} as Exports };
  const recordingRequire = (id: string): unknown => {
    required.push(id);
    return realRequire(id);
  };
  new Function('exports', 'require', 'module', '__filename', '__dirname', source)(
    module.exports,
    recordingRequire,
    module,
    path,
    dirname(path),
  );
  return module.exports;
}

const relative = (ids: string[]): string[] => ids.filter((id) => id.startsWith('.'));

describe('lazyReexports', () => {
  const barrels: Array<[string, string, RegExp]> = [
    [
      'class-validator decorators (`__exportStar`)',
      'class-validator/cjs/decorator/decorators.js',
      CLASS_VALIDATOR_DECORATORS,
    ],
    ['TypeORM index (`tslib_1.__exportStar` and named getters)', 'typeorm/index.js', TYPEORM_INDEX],
    ['rxjs index (named getters)', 'rxjs', RXJS_INDEXES],
    ['rxjs/operators index (named getters)', 'rxjs/operators', RXJS_INDEXES],
    ['@nestjs/common index (nested `export *`)', '@nestjs/common/index.js', NEST_INDEXES],
    ['@nestjs/microservices index', '@nestjs/microservices/index.js', NEST_INDEXES],
  ];

  it.each(barrels)(
    '%s: matched by its pattern, same names and values, nothing re-exported loaded up front',
    (_name, id, pattern) => {
      const path = require.resolve(id);
      expect(pattern.test(path)).toBe(true);
      const real = loadReal(path) as Exports;
      const required: string[] = [];
      const lazy = evaluate(lazyReexports(readFileSync(path, 'utf8'), path) ?? '', path, required);

      const relativeRequiresOfOriginal = readFileSync(path, 'utf8').match(/require\("\.{1,2}\//g) ?? [];
      expect(relativeRequiresOfOriginal.length).toBeGreaterThan(0);
      const loadedUpFront = relative(required);
      expect(Object.keys(lazy).sort()).toEqual(Object.keys(real).sort());
      for (const name of Object.keys(real)) expect(lazy[name]).toBe(real[name]);
      // Side-effect requires and named re-exports used by the module's own code stay eager.
      expect(loadedUpFront.length).toBeLessThan(relativeRequiresOfOriginal.length / 4);
    },
  );

  it('loads a re-exported module when one of its names is first read, and only that module', () => {
    const path = require.resolve('class-validator/cjs/decorator/decorators.js');
    const required: string[] = [];
    const lazy = evaluate(lazyReexports(readFileSync(path, 'utf8'), path) ?? '', path, required);
    expect(relative(required)).toEqual([]);
    expect(typeof lazy.IsString).toBe('function');
    expect(relative(required)).toEqual(['./typechecker/IsString']);
  });

  it('keeps the first module to export a name and skips "default", as `__exportStar` does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lazy-reexports-'));
    try {
      writeFileSync(join(dir, 'a.js'), 'exports.shared = "a"; exports.own = "a";');
      writeFileSync(join(dir, 'b.js'), 'exports.shared = "b"; exports.onlyB = "b"; exports.default = "b";');
      const path = join(dir, 'barrel.js');
      const source = [
        '"use strict";',
        'Object.defineProperty(exports, "__esModule", { value: true });',
        'exports.own = "barrel";',
        '__exportStar(require("./a"), exports);',
        '__exportStar(require("./b"), exports);',
      ].join('\n');
      const lazy = evaluate(lazyReexports(source, path) ?? '', path);
      expect({ ...lazy }).toEqual({ own: 'barrel', shared: 'a', onlyB: 'b' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns null for a module without re-exports', () => {
    const path = require.resolve('@nestjs/common/utils/shared.utils.js');
    expect(lazyReexports(readFileSync(path, 'utf8'), path)).toBeNull();
  });
});

describe('deferRequires', () => {
  const at = require.resolve('typeorm/driver/DriverFactory.js');

  it('defers a require read only through members; `new x_1.C()` still constructs the member', async () => {
    const source = [
      '"use strict";',
      'const path_1 = require("path");',
      'function make() { return new path_1.constructor(); }',
      'exports.join = (...parts) => path_1.join(...parts); // path_1.join, as "path_1" says',
      'exports.text = "path_1.join and \'path_1\'";',
      'exports.make = make;',
    ].join('\n');
    const required: string[] = [];
    const deferred = evaluate(await deferRequires(source, at, ['path']), at, required);
    expect(required).toEqual([]);
    expect((deferred.join as (...parts: string[]) => string)('a', 'b')).toBe('a/b');
    expect((deferred.make as () => unknown)()).toEqual({});
    expect(deferred.text).toBe("path_1.join and 'path_1'");
    expect(required).toEqual(['path']);
  });

  it('leaves eager, with `all`, a require whose module object is used as a value; refuses it when named', async () => {
    const source = [
      '"use strict";',
      'const a_1 = require("path");',
      'const b_1 = require("os");',
      'exports.a = a_1;',
      'exports.eol = () => b_1.EOL;',
    ].join('\n');
    const required: string[] = [];
    const result = evaluate(await deferRequires(source, at, 'all'), at, required);
    expect(required).toEqual(['path']);
    expect(result.a).toBe(loadReal('path'));
    await expect(deferRequires(source, at, ['path'])).rejects.toThrow(/used other than by reading a member/);
    await expect(deferRequires(source, at, ['fs'])).rejects.toThrow(/no top-level require of fs to defer/);
  });

  it('a use the line-based rewrite would miss (a template literal, a regular expression) is found', async () => {
    const inTemplate = [
      '"use strict";',
      'const os_1 = require("os");',
      "exports.a = () => `it's ${os_1.EOL} isn't`;",
      'exports.b = () => os_1.EOL;',
    ].join('\n');
    await expect(deferRequires(inTemplate, at, ['os'])).rejects.toThrow(/was not rewritten/);
    const inRegExp = [
      '"use strict";',
      'const os_1 = require("os");',
      'exports.a = (x) => /https?:\\/\\//.test(x) && os_1.EOL;',
    ].join('\n');
    await expect(deferRequires(inRegExp, at, ['os'])).rejects.toThrow(/was not rewritten/);
    const bareInTemplate = [
      '"use strict";',
      'const os_1 = require("os");',
      'exports.a = () => `${os_1}`;',
      'exports.b = () => os_1.EOL;',
    ].join('\n');
    await expect(deferRequires(bareInTemplate, at, ['os'])).rejects.toThrow(
      /used other than by reading a member/,
    );
  });

  it.each(TYPEORM_DEFERRED_REQUIRES.map((rule) => [String(rule.module), rule] as const))(
    'applies to the installed TypeORM module %s: nothing it defers loads with the module',
    async (_pattern, rule) => {
      const file = [
        'driver/DriverFactory.js',
        'platform/PlatformTools.js',
        'util/StringUtils.js',
        'util/DirectoryExportedClassesLoader.js',
        'logger/FileLogger.js',
        'logger/DebugLogger.js',
        'query-builder/InsertQueryBuilder.js',
      ]
        .map((name) => require.resolve(`typeorm/${name}`))
        .find((candidate) => rule.module.test(candidate));
      expect(file).toBeDefined();
      const path = file as string;
      const required: string[] = [];
      const transformed = await deferRequires(readFileSync(path, 'utf8'), path, rule.requires);
      const deferredModule = evaluate(transformed, path, required);
      const expectedAbsent =
        rule.requires === 'all' ? ['./sqlite/SqliteDriver', './mysql/MysqlDriver'] : rule.requires;
      for (const id of expectedAbsent) expect(required).not.toContain(id);
      expect(Object.keys(deferredModule).sort()).toEqual(Object.keys(loadReal(path) as Exports).sort());
    },
  );

  it('a deferred TypeORM function works once called (StringUtils.hash loads sha.js then)', async () => {
    const path = require.resolve('typeorm/util/StringUtils.js');
    const required: string[] = [];
    const deferred = evaluate(
      await deferRequires(readFileSync(path, 'utf8'), path, ['sha.js']),
      path,
      required,
    );
    const real = loadReal(path) as { hash: (input: string) => string };
    expect(required).not.toContain('sha.js');
    expect((deferred.hash as (input: string) => string)('thread_items')).toBe(real.hash('thread_items'));
    expect(required).toContain('sha.js');
  });
});

describe('stand-ins for modules the CLI leaves out', () => {
  const standInCases: Array<[string, string, StandIn, RegExp]> = [
    [
      'a TypeORM driver other than SQLite and PostgreSQL',
      require.resolve('typeorm/driver/mysql/MysqlDriver.js'),
      UNUSED_TYPEORM_DRIVERS,
      /TypeORM's "mysql" driver is not bundled .*SQLite or PostgreSQL/,
    ],
    [
      'libphonenumber-js metadata',
      require.resolve('libphonenumber-js/max', { paths: [require.resolve('class-validator')] }),
      PHONE_NUMBER_METADATA,
      /libphonenumber-js \(IsPhoneNumber\) is not bundled/,
    ],
    [
      'inquirer',
      require.resolve('inquirer', { paths: [require.resolve('nest-commander')] }),
      INQUIRER,
      /inquirer is not bundled .*no interactive input/,
    ],
  ];

  it.each(standInCases)(
    '%s: matched, same export names, each throwing the reason when read',
    (_name, path, standIn, reason) => {
      expect(standIn.modules.test(path)).toBe(true);
      const names = exportNames(path);
      expect(names.length).toBeGreaterThan(0);
      const module = evaluate(standInSource(names, standIn.reason(path)), path);
      expect(Object.keys(module)).toEqual(Object.keys(loadReal(path) as Exports));
      expect(() => module[names[0]]).toThrow(reason);
    },
  );

  it('fails the build when a module not known to read a stand-in imports it, or a stand-in matched nothing', () => {
    const mysql = 'node_modules/typeorm/driver/mysql/MysqlDriver.js';
    const inputs = {
      'node_modules/typeorm/driver/DriverFactory.js': { imports: [{ path: mysql }] },
      'node_modules/typeorm/query-builder/SelectQueryBuilder.js': {
        imports: [{ path: 'node_modules/typeorm/util/OrmUtils.js' }],
      },
    };
    expect(standInErrors([UNUSED_TYPEORM_DRIVERS], new Set([UNUSED_TYPEORM_DRIVERS]), inputs)).toEqual([]);
    const newImporter = {
      ...inputs,
      'node_modules/typeorm/query-builder/QueryBuilder.js': { imports: [{ path: mysql }] },
    };
    expect(standInErrors([UNUSED_TYPEORM_DRIVERS], new Set([UNUSED_TYPEORM_DRIVERS]), newImporter)).toEqual([
      `node_modules/typeorm/query-builder/QueryBuilder.js imports ${mysql}, which is left out of the bundle (scripts/cli-bundle/stand-ins.ts)`,
    ]);
    expect(standInErrors([PHONE_NUMBER_METADATA], new Set(), {})).toEqual([
      `no bundled module matches ${String(PHONE_NUMBER_METADATA.modules)}`,
    ]);
  });

  it('the drivers the store uses are not matched', () => {
    for (const id of [
      'typeorm/driver/sqlite/SqliteDriver.js',
      'typeorm/driver/postgres/PostgresDriver.js',
      'typeorm/driver/sqlite-abstract/AbstractSqliteDriver.js',
    ])
      expect(UNUSED_TYPEORM_DRIVERS.modules.test(require.resolve(id))).toBe(false);
  });

  it('inquirer as nest-commander imports it (`__importStar`): nothing is read until a prompt is asked for', () => {
    const path = require.resolve('inquirer', { paths: [require.resolve('nest-commander')] });
    const standIn = evaluate(standInSource(exportNames(path), INQUIRER.reason(path)), path);
    const { __importStar } = loadReal('tslib') as { __importStar: (module: Exports) => Exports };
    const starred = __importStar(standIn);
    expect(() => starred.prompt).toThrow(/inquirer is not bundled/);
  });
});

describe('a rule that rewrote nothing', () => {
  const bundle = (plugin: Plugin): Promise<unknown> =>
    build({
      stdin: { contents: 'require("typeorm/util/StringUtils.js")', resolveDir: process.cwd(), loader: 'js' },
      bundle: true,
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [plugin],
    });

  it.each([
    ['lazyReexportsOf', lazyReexportsOf([/no-such-barrel\.js$/]), /no module matching .*no-such-barrel/],
    [
      'deferredRequires',
      deferredRequires([{ module: /no-such-module\.js$/, requires: 'all' }]),
      /no bundled module matches/,
    ],
    [
      'standIns',
      standIns([{ modules: /no-such-stand-in\.js$/, importers: /none/, reason: () => 'left out' }]),
      /no bundled module matches/,
    ],
  ])('%s fails the build (the build rejects, nothing is written)', async (_name, plugin, message) => {
    await expect(bundle(plugin)).rejects.toThrow(message);
  });
});
