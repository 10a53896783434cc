/** Order statistics over samples; the bench reports medians and nearest-rank percentiles. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0…100) of a non-empty sample. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The index of the sample closest to the median (to report the run a median came from). */
export function medianIndex(values: readonly number[]): number {
  const target = median(values);
  return values.findIndex((value) => value === target);
}

/** min, p90 and max of a sample (details beside a median). */
export function spread(values: readonly number[]): { min: number; p90: number; max: number } {
  return { min: Math.min(...values), p90: percentile(values, 90), max: Math.max(...values) };
}
