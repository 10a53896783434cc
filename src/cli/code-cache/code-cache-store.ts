/**
 * V8 code cache files beside a script. A file's name carries the script's content hash, the Node
 * version and the architecture, so a cache made for another bundle or another Node is never even
 * read (V8 would reject it, but only after its own checks; and it only checks the source length).
 * Every failure to read or write is ignored: the cache only ever costs or saves time, and a
 * read-only installation must run as well without it.
 */
import { accessSync, constants, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const SUFFIX = '.v8cache';

export class CodeCacheStore {
  readonly file: string;
  private readonly directory: string;
  private readonly prefix: string;

  /** `scriptPath`'s cache for the content hash `scriptHash` on this Node. */
  constructor(scriptPath: string, scriptHash: string) {
    this.directory = dirname(scriptPath);
    this.prefix = `${basename(scriptPath).replace(/\.js$/, '')}.`;
    const key = `${scriptHash.slice(0, 16)}-node${process.versions.node}-${process.arch}`;
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
