import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeCacheStore } from '../../../../src/cli/code-cache/code-cache-store';

const HASH = 'a'.repeat(16) + 'b'.repeat(48);
const OTHER_HASH = 'c'.repeat(64);

describe('CodeCacheStore', () => {
  let dir: string;
  let script: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cache-store-'));
    script = join(dir, 'cli-bundle.js');
    writeFileSync(script, '// script\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the cache after the script, the first 16 hex digits of its hash, the Node version and the architecture', () => {
    const store = new CodeCacheStore(script, HASH);
    expect(store.file).toBe(
      join(dir, `cli-bundle.${'a'.repeat(16)}-node${process.versions.node}-${process.arch}.v8cache`),
    );
  });

  it('reads nothing before a write, then exactly the bytes written, with no temporary file left', () => {
    const store = new CodeCacheStore(script, HASH);
    expect(store.read()).toBeUndefined();
    const data = Buffer.from([0, 1, 2, 250, 251, 252]);
    expect(store.write(data)).toBe(true);
    expect(store.read()).toEqual(data);
    expect(readdirSync(dir).sort()).toEqual([store.file.slice(dir.length + 1), 'cli-bundle.js'].sort());
  });

  it("a write removes the script's caches for other hashes or Node versions, and nothing else", () => {
    const stale = new CodeCacheStore(script, OTHER_HASH);
    stale.write(Buffer.from('old'));
    writeFileSync(join(dir, 'cli-bundle.0000000000000000-node18.0.0-x64.v8cache'), 'older');
    writeFileSync(join(dir, 'other-script.aaaaaaaaaaaaaaaa-node20.0.0-x64.v8cache'), 'not ours');
    writeFileSync(join(dir, 'notes.txt'), 'kept');
    const store = new CodeCacheStore(script, HASH);
    store.write(Buffer.from('new'));
    expect(readdirSync(dir).sort()).toEqual(
      [
        'cli-bundle.js',
        store.file.slice(dir.length + 1),
        'notes.txt',
        'other-script.aaaaaaaaaaaaaaaa-node20.0.0-x64.v8cache',
      ].sort(),
    );
    expect(stale.read()).toBeUndefined();
  });

  it('a directory that cannot be written reports not writable and a failed write, without throwing', () => {
    const store = new CodeCacheStore(join(dir, 'missing', 'cli-bundle.js'), HASH);
    expect(store.writable()).toBe(false);
    expect(store.write(Buffer.from('x'))).toBe(false);
    expect(store.read()).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['cli-bundle.js']);
  });

  it('an unreadable cache (a directory in its place) reads as absent', () => {
    const store = new CodeCacheStore(script, HASH);
    mkdirSync(store.file);
    expect(store.read()).toBeUndefined();
  });
});
