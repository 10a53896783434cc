/**
 * When the CLI's V8 code cache is written. The loader (src/main.ts) offers the save; only a server
 * command asks for it, once its start-up is under way (cli-main.ts). A cache holds the functions the
 * run compiled before it was made, so one made by `--help` or `schema` would be accepted by every
 * later server start and leave most of the server's start-up uncached.
 *
 * The loader runs outside the bundle and cli-main inside it, each with its own copy of this module,
 * so the offer is kept under a registered symbol on the global object, which both see.
 */

import { withV8DefaultFlags } from '../v8-settings/young-generation';

/** After start-up has compiled what it needs, or at exit if that comes sooner. */
export const CODE_CACHE_SAVE_DELAY_MS = 1_000;

const OFFER = Symbol.for('vv-agent.cli.saveCodeCache');

type Offers = Partial<Record<typeof OFFER, () => void>>;

/** Called by the loader when its cache was absent or rejected: `save` writes a new one. */
export function offerCodeCacheSave(save: () => void): void {
  (globalThis as Offers)[OFFER] = save;
}

/** Called once a server starts: writes the offered cache after the delay or at exit, whichever is first. */
export function saveCodeCacheAfterStartup(): void {
  const offers = globalThis as Offers;
  const save = offers[OFFER];
  if (save === undefined) return;
  delete offers[OFFER];
  let saved = false;
  const saveOnce = (): void => {
    if (saved) return;
    saved = true;
    clearTimeout(timer);
    process.removeListener('exit', saveOnce);
    withV8DefaultFlags(save);
  };
  const timer = setTimeout(saveOnce, CODE_CACHE_SAVE_DELAY_MS);
  timer.unref();
  process.once('exit', saveOnce);
}
