/** Generated ids (runtime.md: prefix + 32 hex, a UUID v4) drawn from the pooled random block. */
import { newId } from '../../../src/runtime/ids';
import { randomIdHex } from '../../../src/runtime/random-id';

/** More ids than one pooled block holds (256), so a refill is crossed. */
const MANY = 1_000;

describe('runtime ids', () => {
  it('are the prefix and a UUID v4 without dashes', () => {
    for (let count = 0; count < MANY; count += 1) {
      expect(newId('evt_')).toMatch(/^evt_[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    }
    expect(newId('run_')).toMatch(/^run_[0-9a-f]{32}$/);
  });

  it('never repeat across refills of the random block', () => {
    const ids = new Set(Array.from({ length: MANY }, () => newId('evt_')));
    expect(ids.size).toBe(MANY);
  });

  it('hand the bits writer the 16 bytes about to be encoded, then move on to fresh ones', () => {
    const hex = randomIdHex((bytes, at) => bytes.fill(0xab, at, at + 16));
    expect(hex).toBe('ab'.repeat(16));
    expect(randomIdHex(() => undefined)).not.toBe(hex);
  });
});
