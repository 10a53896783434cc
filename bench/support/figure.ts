/**
 * One benchmark figure measured beside its floor in the same run. `ratio` is always value / floor;
 * `better` tells which direction of the ratio is an improvement (throughput: higher; latency,
 * memory: lower). A figure with a `target` (issue 11's table) also records whether it met it.
 */
export interface Figure {
  value: number;
  floor: number;
  ratio: number;
  unit: string;
  runs: number;
  better: 'higher' | 'lower';
  /** What the value and the floor measure, in words. */
  description: string;
  /** Supporting numbers (counts, percentiles, raw samples summaries). */
  details?: Record<string, unknown>;
  target?: Target;
  /** Whether the figure met its target (only with a target). */
  meets?: boolean;
}

/**
 * A bound on the ratio (`ratio ≤ 2`) or on the value itself (`≤ 50 MiB`, for targets stated
 * against an absolute budget such as idle + 50 MiB).
 */
export interface Target {
  on: 'ratio' | 'value';
  /** `max`: the measured number must be ≤ bound; `min`: ≥ bound. */
  bound: 'max' | 'min';
  limit: number;
}

/** A benchmark's named figures, e.g. `{ modelList: …, threadRead: … }`. */
export type FigureGroup = Record<string, Figure>;

export function meetsTarget(entry: Pick<Figure, 'value' | 'ratio'>, target: Target): boolean {
  const measured = target.on === 'ratio' ? entry.ratio : entry.value;
  return target.bound === 'max' ? measured <= target.limit : measured >= target.limit;
}

/** `ratio ≤ 2×`, `value ≤ 50 MiB`. */
export function describeTarget(target: Target, unit: string): string {
  const sign = target.bound === 'max' ? '≤' : '≥';
  return target.on === 'ratio' ? `ratio ${sign} ${target.limit}×` : `${sign} ${target.limit} ${unit}`;
}

export function figure(fields: Omit<Figure, 'ratio' | 'meets'>): Figure {
  const ratio = fields.floor === 0 ? Number.NaN : fields.value / fields.floor;
  const entry: Figure = { ...fields, ratio };
  if (fields.target) entry.meets = meetsTarget(entry, fields.target);
  return entry;
}
