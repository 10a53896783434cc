import { randomIdHex } from './random-id';

/** Generated ids: a prefix plus 32 lowercase hex characters, a UUID v4 without dashes (runtime.md). */
export type IdPrefix = 'run_' | 'trace_' | 'evt_' | 'approval_' | 'steer_';

function uuidV4Bits(bytes: Buffer, at: number): void {
  bytes[at + 6] = (bytes[at + 6] & 0x0f) | 0x40; // version 4
  bytes[at + 8] = (bytes[at + 8] & 0x3f) | 0x80; // RFC 9562 variant
}

export function newId(prefix: IdPrefix): string {
  return prefix + randomIdHex(uuidV4Bits);
}
