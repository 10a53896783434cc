/**
 * Jest global teardown of the `reliability` project: sums the attack records the suites wrote and
 * prints `reliability: <n> attacks tried, <f> freezes, <e> escapes, <l> lost` (with a per-suite
 * breakdown) to stderr, whether the tests passed or not.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type AttackRecord, TALLY_FILE_ENV } from './attack-tally';

export function summarizeAttacks(records: AttackRecord[]): string {
  const sum = (key: 'tried' | 'freezes' | 'escapes' | 'lost', of = records) =>
    of.reduce((total, record) => total + record[key], 0);
  const suites = [...new Set(records.map((record) => record.suite))].sort();
  const perSuite = suites.map((suite) => {
    const own = records.filter((record) => record.suite === suite);
    return `  ${suite}: ${sum('tried', own)} tried, ${sum('freezes', own)} freezes, ${sum('escapes', own)} escapes, ${sum('lost', own)} lost`;
  });
  return [
    `reliability: ${sum('tried')} attacks tried, ${sum('freezes')} freezes, ${sum('escapes')} escapes, ${sum('lost')} lost`,
    ...perSuite,
  ].join('\n');
}

export default function printAttackTally(): void {
  const file = process.env[TALLY_FILE_ENV];
  if (!file) return;
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const records = lines.map((line) => JSON.parse(line) as AttackRecord);
  process.stderr.write(`\n${summarizeAttacks(records)}\n`);
  rmSync(dirname(file), { recursive: true, force: true });
}
