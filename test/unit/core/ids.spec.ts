/** Server-generated ids (docs/spec/protocol.md §5.1): prefix + 32 hex of a UUID v7 that sorts by creation time. */
import { newItemId, newThreadId, newTurnId, uuidV7Hex } from '../../../src/core/ids';

const UUID_V7 = /^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/;

describe('app server ids', () => {
  it('carry their prefix and a UUID v7', () => {
    expect(newThreadId()).toMatch(/^thread_[0-9a-f]{32}$/);
    expect(newTurnId()).toMatch(/^turn_[0-9a-f]{32}$/);
    expect(newItemId()).toMatch(/^item_[0-9a-f]{32}$/);
    expect(newItemId().slice('item_'.length)).toMatch(UUID_V7);
  });

  it('start with the 48-bit millisecond timestamp', () => {
    const now = 0x0123_4567_89ab;
    const hex = uuidV7Hex(now);
    expect(hex).toMatch(UUID_V7);
    expect(hex.slice(0, 12)).toBe('0123456789ab');
    // Only the low 48 bits of a later time are kept; a negative time counts as 0, a fractional one is floored.
    expect(uuidV7Hex(2 ** 48 + 5).slice(0, 12)).toBe('000000000005');
    expect(uuidV7Hex(-7).slice(0, 12)).toBe('000000000000');
    expect(uuidV7Hex(10.9).slice(0, 12)).toBe('00000000000a');
  });

  it('sort by creation time and never repeat', () => {
    const ids = Array.from({ length: 1_000 }, (_, index) => uuidV7Hex(1_700_000_000_000 + index));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
