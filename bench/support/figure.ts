/**
 * One benchmark figure measured beside its floor in the same run. `ratio` is always value / floor;
 * `better` tells which direction of the ratio is an improvement (throughput: higher; latency,
 * memory: lower).
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
}

/** A benchmark's named figures, e.g. `{ modelList: …, threadRead: … }`. */
export type FigureGroup = Record<string, Figure>;

export function figure(fields: Omit<Figure, 'ratio'>): Figure {
  return { ...fields, ratio: fields.floor === 0 ? Number.NaN : fields.value / fields.floor };
}
