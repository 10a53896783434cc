import { markUuid, randomIdHex } from './random-id';

/** Generated ids: a prefix plus 32 lowercase hex characters, a UUID v4 without dashes (runtime.md). */
export type IdPrefix = 'run_' | 'trace_' | 'evt_' | 'approval_' | 'steer_';

const uuidV4Bits = (bytes: Buffer, at: number): void => markUuid(bytes, at, 4);

export function newId(prefix: IdPrefix): string {
  return prefix + randomIdHex(uuidV4Bits);
}
