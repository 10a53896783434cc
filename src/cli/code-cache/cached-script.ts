/**
 * Runs a CommonJS file through `vm.Script` with a V8 code cache (Node 20 has no built-in compile
 * cache; `module.enableCompileCache()` arrived in Node 22.1). With an accepted cache V8 skips
 * compiling the functions the run that made it compiled; without one, the script compiles as usual.
 */
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { constants, Script } from 'node:vm';
import type { CodeCacheStore } from './code-cache-store';

export type CacheOutcome = 'accepted' | 'absent' | 'rejected' | 'unkeyed';

export interface CachedScriptRun {
  outcome: CacheOutcome;
  /** The script's `module.exports`. */
  exports: unknown;
  /**
   * Writes a cache of what has been compiled so far, when the store had none or V8 rejected it; a
   * no-op otherwise and after the first call. Returns whether a cache was written.
   */
  saveCache(): boolean;
}

type ModuleWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;

/** `store` null: the script has no content key, so no cache is read or written for it. */
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
        : script.cachedDataRejected === true
          ? 'rejected'
          : 'accepted';

  let due = outcome === 'absent' || outcome === 'rejected';
  const saveCache = (): boolean => {
    if (!due || store === null) return false;
    due = false;
    try {
      // Checked first: producing the data costs tens of milliseconds.
      return store.writable() && store.write(script.createCachedData());
    } catch {
      // A missing cache only costs the next start its speed-up.
      return false;
    }
  };

  const module = new Module(filename);
  module.filename = filename;
  const wrapper = script.runInThisContext() as ModuleWrapper;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  return { outcome, exports: module.exports, saveCache };
}
