/**
 * Runs a CommonJS file through `vm.Script` with a V8 code cache (Node 20 has no built-in compile
 * cache; `module.enableCompileCache()` arrived in Node 22.1). With an accepted cache V8 skips
 * compiling the functions the last run compiled; without one, the script runs normally and its cache
 * is written once start-up is over, so it holds the lazily compiled functions start-up ran.
 */
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { constants, Script } from 'node:vm';
import type { CodeCacheStore } from './code-cache-store';

/** When the cache is (re)written: after start-up has compiled what it needs, or at exit if sooner. */
export const CACHE_WRITE_DELAY_MS = 1_000;

export type CacheOutcome = 'accepted' | 'absent' | 'rejected' | 'unkeyed';

export interface CachedScriptRun {
  outcome: CacheOutcome;
  /** The script's `module.exports`. */
  exports: unknown;
  /** Writes the cache now when it is due (idempotent; the timer and the exit hook call it too). */
  saveCache(): void;
}

type ModuleWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;

/**
 * `store` null: the script has no content key, so no cache is read or written for it. The write is
 * scheduled on an unref'd timer and on process exit; `saveCache` lets a caller force it.
 */
export function runCachedScript(
  filename: string,
  source: string,
  store: CodeCacheStore | null,
): CachedScriptRun {
  const cachedData = store?.read();
  const script = new Script(Module.wrap(source), {
    filename,
    cachedData,
    // Bundled packages keep a few `import()` calls (ESM-only optional loaders): resolve them as Node would.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const outcome: CacheOutcome =
    store === null
      ? 'unkeyed'
      : cachedData === undefined
        ? 'absent'
        : script.cachedDataRejected
          ? 'rejected'
          : 'accepted';

  let due = outcome === 'absent' || outcome === 'rejected';
  let timer: NodeJS.Timeout | undefined;
  const saveCache = (): void => {
    if (!due || store === null) return;
    due = false;
    clearTimeout(timer);
    process.removeListener('exit', saveCache);
    try {
      if (store.writable()) store.write(script.createCachedData());
    } catch {
      // A missing cache only costs the next start its speed-up.
    }
  };
  if (due) {
    timer = setTimeout(saveCache, CACHE_WRITE_DELAY_MS);
    timer.unref();
    process.once('exit', saveCache);
  }

  const module = new Module(filename);
  module.filename = filename;
  const wrapper = script.runInThisContext() as ModuleWrapper;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  return { outcome, exports: module.exports, saveCache };
}
