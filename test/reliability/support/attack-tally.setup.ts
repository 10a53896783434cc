/** Jest global setup of the `reliability` project: names the run's attack tally file (see attack-tally). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TALLY_FILE_ENV } from './attack-tally';

export default function createAttackTally(): void {
  // Set before the workers start, so every test file appends to the same file.
  process.env[TALLY_FILE_ENV] = join(mkdtempSync(join(tmpdir(), 'vv-rel-tally-')), 'attacks.jsonl');
}
