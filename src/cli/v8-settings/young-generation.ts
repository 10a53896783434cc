/**
 * A server process stops V8's young generation from growing past 16 MiB (issue 11).
 *
 * V8 doubles the young generation (up to 32 MiB on Node 20) whenever as many bytes have survived
 * scavenges since its last growth as it holds, and gives the memory back only once the process
 * idles. A streamed answer allocates a few objects per delta (its chunk, run event and
 * notification) that die a few deltas later; the ones in flight when a scavenge runs survive it
 * once. Over a long answer those survivals add up and the young generation doubles to 32 MiB,
 * although nothing in it lives long. Start-up grows it to 8 MiB and a first turn to 16. Held there,
 * a 100,000-delta turn peaks at about 30 MiB over idle instead of 45 to 51, in the same time. At
 * 8 MiB the turn gains a little more but a 10,000-item `thread/read` takes 10 % longer, its
 * objects promoted before they die; at 4 MiB in-flight deltas are promoted too and the turn peaks
 * at 42 to 50 MiB (docs/performance-notes.md).
 *
 * Set at run time (`v8.setFlagsFromString`), since a client spawns the server with whatever node
 * options it has. V8 has no run-time flag for the size itself, only for the growth factor, so
 * growth stops once the young generation has reached the cap.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Committed young generation (both semi-spaces) past which it does not grow. */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 1024 * 1024;

const NO_GROWTH = '--semi-space-growth-factor=1';
/** V8's default (`node --v8-options`). */
const V8_DEFAULT_GROWTH = '--semi-space-growth-factor=2';

let held = false;

/**
 * Whether V8 sizes the young generation by the growth factor. V8 14 (Node 26) grows it page by page
 * from the allocation rate instead and no longer reads the factor (measured: with the factor set to
 * 1 at 16 MiB the churn of the unit test still grew it to 27.5 MiB, as without it); setting the
 * flag there would only change V8's flag hash, and with it reject code caches, for nothing.
 */
export function growthFactorSizesYoungGeneration(v8Version: string = process.versions.v8): boolean {
  return Number(v8Version.split('.')[0]) < 14;
}

/**
 * Stops the young generation's growth now if it reached `capBytes`, else after the first GC that
 * finds it there; nothing where V8 does not size it by the growth factor.
 */
export function capYoungGeneration(capBytes: number = YOUNG_GENERATION_CAP_BYTES): void {
  if (!growthFactorSizesYoungGeneration()) return;
  if (youngGenerationBytes() >= capBytes) {
    stopGrowth();
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < capBytes) return;
    observer.disconnect();
    stopGrowth();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/**
 * Runs `make` with V8's default flag values. V8 stamps a code cache with a hash of every flag's
 * value and rejects it when they differ, and the next start checks the cache before any flag is
 * changed: a cache made while growth is stopped would be rejected by every later start.
 */
export function withV8DefaultFlags<T>(make: () => T): T {
  if (!held) return make();
  setFlagsFromString(V8_DEFAULT_GROWTH);
  try {
    return make();
  } finally {
    setFlagsFromString(NO_GROWTH);
  }
}

function stopGrowth(): void {
  setFlagsFromString(NO_GROWTH);
  held = true;
}

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
