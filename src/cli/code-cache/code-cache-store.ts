/**
 * V8 code cache files beside a script. A file's name carries the script's content hash, the Node
 * version, the architecture and a digest of the V8 version and the flags the process started with,
 * so a cache made for another bundle, another Node or other V8 flags is never even read (V8 would
 * reject some of those, but only after its own checks; it checks the source length and a flag hash
 * that does not cover every flag that changes code generation).
 * Every failure to read or write is ignored: the cache only ever costs or saves time, and a
 * read-only installation must run as well without it.
 */
import { accessSync, constants, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';

const SUFFIX = '.v8cache';

/** What, besides the script, decides whether a code cache fits the running process. */
export interface NodeRuntimeIdentity {
  node: string;
  arch: string;
  v8: string;
  /** Node and V8 options from the command line and NODE_OPTIONS, as given. */
  options: readonly string[];
}

export function currentRuntimeIdentity(): NodeRuntimeIdentity {
  const fromEnvironment = process.env.NODE_OPTIONS?.trim();
  return {
    node: process.versions.node,
    arch: process.arch,
    v8: process.versions.v8,
    options: fromEnvironment ? [...process.execArgv, fromEnvironment] : process.execArgv,
  };
}

/** `node<version>-<arch>-<8 hex digits of the V8 version and options>`. */
export function runtimeCacheKey(runtime: NodeRuntimeIdentity): string {
  const flags = createHash('sha256')
    .update([runtime.v8, ...runtime.options].join('\0'))
    .digest('hex');
  return `node${runtime.node}-${runtime.arch}-${flags.slice(0, 8)}`;
}

export class CodeCacheStore {
  readonly file: string;
  private readonly directory: string;
  private readonly prefix: string;

  /** `scriptPath`'s cache for the content hash `scriptHash` on this Node with these options. */
  constructor(
    scriptPath: string,
    scriptHash: string,
    runtime: NodeRuntimeIdentity = currentRuntimeIdentity(),
  ) {
    this.directory = dirname(scriptPath);
    this.prefix = `${basename(scriptPath).replace(/\.js$/, '')}.`;
    const key = `${scriptHash.slice(0, 16)}-${runtimeCacheKey(runtime)}`;
    this.file = join(this.directory, `${this.prefix}${key}${SUFFIX}`);
  }

  /** The cached data, or undefined when there is none (or it cannot be read). */
  read(): Buffer | undefined {
    try {
      return readFileSync(this.file);
    } catch {
      return undefined;
    }
  }

  /** Whether a write can succeed: checked before producing the data, which costs tens of ms. */
  writable(): boolean {
    try {
      accessSync(this.directory, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Replaces the cache atomically (a concurrent start reads the old file or the new one, never a
   * torn one) and removes this script's caches for other bundles or Node versions. Returns whether
   * the cache was written.
   */
  write(data: Buffer): boolean {
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, data);
      renameSync(temporary, this.file);
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // The directory itself is unusable; nothing was left behind.
      }
      return false;
    }
    this.removeStale();
    return true;
  }

  private removeStale(): void {
    try {
      for (const name of readdirSync(this.directory)) {
        const path = join(this.directory, name);
        if (name.startsWith(this.prefix) && name.endsWith(SUFFIX) && path !== this.file)
          rmSync(path, { force: true });
      }
    } catch {
      // Stale caches only take disk space.
    }
  }
}
