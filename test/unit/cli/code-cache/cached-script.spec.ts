import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleStamp, stampBundle } from '../../../../src/cli/code-cache/bundle-stamp';
import { runCachedScript } from '../../../../src/cli/code-cache/cached-script';
import { CodeCacheStore } from '../../../../src/cli/code-cache/code-cache-store';

/** A CommonJS script that uses require, module, __filename and __dirname, as the bundle does. */
const BODY = [
  "const { basename } = require('node:path');",
  "const helper = require('./helper.js');",
  'function square(n) { return n * n; }',
  'module.exports = { file: basename(__filename), dir: __dirname, helper, squares: [1, 2, 3].map(square) };',
  '',
].join('\n');

describe('runCachedScript', () => {
  let dir: string;
  let script: string;
  let source: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cached-script-'));
    script = join(dir, 'bundle.js');
    source = stampBundle(BODY);
    writeFileSync(script, source);
    writeFileSync(join(dir, 'helper.js'), "module.exports = 'helped';\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const store = (): CodeCacheStore => new CodeCacheStore(script, bundleStamp(source) as string);
  const caches = (): string[] => readdirSync(dir).filter((name) => name.endsWith('.v8cache'));

  it('runs the script as a CommonJS module: its exports, require relative to it, __filename and __dirname', () => {
    const run = runCachedScript(script, source, store());
    expect(run.exports).toEqual({ file: 'bundle.js', dir, helper: 'helped', squares: [1, 4, 9] });
  });

  it('absent → saved once → accepted by the next run, which saves nothing', () => {
    const first = runCachedScript(script, source, store());
    expect(first.outcome).toBe('absent');
    expect(caches()).toEqual([]);
    expect(first.saveCache()).toBe(true);
    expect(first.saveCache()).toBe(false);
    expect(caches()).toHaveLength(1);

    const second = runCachedScript(script, source, store());
    expect(second.outcome).toBe('accepted');
    expect(second.exports).toEqual(first.exports);
    expect(second.saveCache()).toBe(false);
  });

  it('a cache V8 rejects (made for other source) is reported and replaced by a good one', () => {
    const other = stampBundle('module.exports = 1;\n');
    const otherScript = join(dir, 'other.js');
    writeFileSync(otherScript, other);
    const foreign = runCachedScript(
      otherScript,
      other,
      new CodeCacheStore(otherScript, bundleStamp(other) as string),
    );
    foreign.saveCache();
    const [foreignCache] = readdirSync(dir).filter((name) => name.startsWith('other.'));
    // The foreign cache under this script's name: same key, different code.
    writeFileSync(store().file, readFileSync(join(dir, foreignCache)));

    const run = runCachedScript(script, source, store());
    expect(run.outcome).toBe('rejected');
    expect(run.exports).toEqual({ file: 'bundle.js', dir, helper: 'helped', squares: [1, 4, 9] });
    expect(run.saveCache()).toBe(true);
    expect(runCachedScript(script, source, store()).outcome).toBe('accepted');
  });

  it('garbage in the cache file is rejected, not thrown', () => {
    writeFileSync(store().file, Buffer.from('not a V8 code cache'));
    const run = runCachedScript(script, source, store());
    expect(run.outcome).toBe('rejected');
    expect(run.exports).toEqual({ file: 'bundle.js', dir, helper: 'helped', squares: [1, 4, 9] });
  });

  it('without a store (an unstamped script) nothing is read or written', () => {
    const run = runCachedScript(script, BODY, null);
    expect(run.outcome).toBe('unkeyed');
    expect(run.saveCache()).toBe(false);
    expect(caches()).toEqual([]);
  });
});

describe('bundle stamp', () => {
  it('stamps the sha256 of the body on the first line and reads it back', () => {
    const stamped = stampBundle('module.exports = 1;\n');
    expect(stamped.split('\n')[0]).toBe(
      '// vv-agent cli bundle sha256:' + createHash('sha256').update('module.exports = 1;\n').digest('hex'),
    );
    expect(stamped.endsWith('\nmodule.exports = 1;\n')).toBe(true);
    expect(bundleStamp(stamped)).toMatch(/^[0-9a-f]{64}$/);
    expect(bundleStamp(stampBundle('module.exports = 2;\n'))).not.toBe(bundleStamp(stamped));
  });

  it('no stamp, or a malformed one, is no key', () => {
    expect(bundleStamp('module.exports = 1;\n')).toBeNull();
    expect(bundleStamp('// vv-agent cli bundle sha256:xyz\nmodule.exports = 1;\n')).toBeNull();
    expect(bundleStamp('// vv-agent cli bundle sha256:' + 'a'.repeat(63) + '\n')).toBeNull();
  });
});
