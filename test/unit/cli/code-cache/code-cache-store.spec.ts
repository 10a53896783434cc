import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CodeCacheStore,
  currentRuntimeIdentity,
  NodeRuntimeIdentity,
  runtimeCacheKey,
} from '../../../../src/cli/code-cache/code-cache-store';

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

  it('names the cache after the script, the first 16 hex digits of its hash, the Node version, the architecture and a digest of V8 and the options', () => {
    const store = new CodeCacheStore(script, HASH);
    expect(store.file).toMatch(
      new RegExp(
        `^${dir}/cli-bundle\\.${'a'.repeat(16)}-node${process.versions.node.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}\\.v8cache$`,
      ),
    );
    expect(store.file.endsWith(`-${runtimeCacheKey(currentRuntimeIdentity())}.v8cache`)).toBe(true);
  });

  it('a cache written by one Node, V8 or set of options is never read by another', () => {
    const node24: NodeRuntimeIdentity = {
      node: '24.22.3',
      arch: 'x64',
      v8: '13.6.233.17-node.44',
      options: [],
    };
    const variants: NodeRuntimeIdentity[] = [
      { ...node24, node: '26.12.1' },
      { ...node24, v8: '14.1.146.11-node.20' },
      { ...node24, arch: 'arm64' },
      { ...node24, options: ['--max-semi-space-size=64'] },
      { ...node24, options: ['--jitless'] },
    ];
    new CodeCacheStore(script, HASH, node24).write(Buffer.from('written by 24'));
    expect(new CodeCacheStore(script, HASH, { ...node24 }).read()).toEqual(Buffer.from('written by 24'));
    const files = new Set([new CodeCacheStore(script, HASH, node24).file]);
    for (const runtime of variants) {
      const other = new CodeCacheStore(script, HASH, runtime);
      expect(other.read()).toBeUndefined();
      files.add(other.file);
    }
    expect(files.size).toBe(variants.length + 1);
  });

  it('NODE_OPTIONS count as options', () => {
    const before = process.env.NODE_OPTIONS;
    try {
      delete process.env.NODE_OPTIONS;
      const plain = runtimeCacheKey(currentRuntimeIdentity());
      process.env.NODE_OPTIONS = '--max-old-space-size=512';
      expect(runtimeCacheKey(currentRuntimeIdentity())).not.toBe(plain);
    } finally {
      if (before === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = before;
    }
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
    writeFileSync(join(dir, 'cli-bundle.aaaaaaaaaaaaaaaa-node22.15.0-x64-00000000.v8cache'), 'other node');
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
