/**
 * The reliability suite's attack tally (issue 12): every attack test records what it tried and what
 * it observed, then asserts the observation. Outcomes:
 * - freeze: a request (or turn) the server did not answer within its bound;
 * - escape: a file outside the workspace read or written, or a process outliving its turn;
 * - lost: an accepted request or turn missing (after a restart, or never stored).
 * Records are appended as JSON lines to the file the project's global setup names (test files run in
 * parallel workers); the global teardown prints the summary line. Without that file (a test run
 * outside the `reliability` project) recording is skipped, the assertions still run.
 */
import { appendFileSync } from 'node:fs';

export const TALLY_FILE_ENV = 'VV_RELIABILITY_TALLY';

export interface AttackOutcome {
  freezes: number;
  escapes: number;
  lost: number;
}

export interface AttackRecord extends AttackOutcome {
  suite: string;
  attack: string;
  /** How many attacks of this kind were tried (e.g. the lines of one fuzz batch). */
  tried: number;
}

const HELD: AttackOutcome = { freezes: 0, escapes: 0, lost: 0 };

/**
 * Records `tried` attacks and what they caused. The caller asserts the same observation right after
 * (use this form when its own assertion explains a failure better than expectAttacksHeld would).
 */
export function recordAttacks(
  suite: string,
  attack: string,
  observed: Partial<AttackOutcome>,
  tried = 1,
): AttackOutcome {
  const outcome = { ...HELD, ...observed };
  const file = process.env[TALLY_FILE_ENV];
  if (file) {
    const record: AttackRecord = { suite, attack, tried, ...outcome };
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  }
  return outcome;
}

/** Records `tried` attacks and what they caused, then asserts they caused no freeze, escape or loss. */
export function expectAttacksHeld(
  suite: string,
  attack: string,
  observed: Partial<AttackOutcome>,
  tried = 1,
): void {
  const outcome = recordAttacks(suite, attack, observed, tried);
  expect({ attack, ...outcome }).toEqual({ attack, ...HELD });
}

/**
 * Awaits a bounded wait of the JSONL harness; `undefined` when it timed out (a freeze), so the test
 * can tally it before failing. Other failures (the child exited, an error answer) still throw.
 */
export async function answeredWithin<T>(pending: Promise<T>): Promise<T | undefined> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('timed out waiting')) return undefined;
    throw error;
  }
}
