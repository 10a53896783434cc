/** The plain-text table `npm run bench` prints: one row per figure, with its target and verdict. */
import { describeTarget, type FigureGroup } from './figure';

const HEADERS = [
  'benchmark',
  'figure',
  'value',
  'floor',
  'ratio',
  'unit',
  'runs',
  'better',
  'target',
  'meets',
];

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(value === 0 ? 0 : 3);
}

function verdict(meets: boolean | undefined): string {
  if (meets === undefined) return '-';
  return meets ? 'pass' : 'FAIL';
}

export function formatTable(groups: ReadonlyArray<readonly [string, FigureGroup]>): string {
  const rows = groups.flatMap(([benchmark, group]) =>
    Object.entries(group).map(([name, entry]) => [
      benchmark,
      name,
      formatNumber(entry.value),
      formatNumber(entry.floor),
      `${entry.ratio.toFixed(3)}×`,
      entry.unit,
      String(entry.runs),
      entry.better,
      entry.target ? describeTarget(entry.target, entry.unit) : '-',
      verdict(entry.meets),
    ]),
  );
  const widths = HEADERS.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** `targets: 5 of 9 met (missed: coldStart.spawnToInitialize, …)`. */
export function formatTargetSummary(groups: ReadonlyArray<readonly [string, FigureGroup]>): string {
  const targeted = groups.flatMap(([benchmark, group]) =>
    Object.entries(group)
      .filter(([, entry]) => entry.target !== undefined)
      .map(([name, entry]) => ({ name: `${benchmark}.${name}`, meets: entry.meets === true })),
  );
  const missed = targeted.filter((entry) => !entry.meets).map((entry) => entry.name);
  const met = targeted.length - missed.length;
  return `targets: ${met} of ${targeted.length} met${missed.length > 0 ? ` (missed: ${missed.join(', ')})` : ''}`;
}
