/**
 * Server-generated ids (docs/spec/protocol.md §5.1): a prefix plus 32 lowercase hex characters. The hex is a
 * UUID v7 (48-bit epoch-ms timestamp, then random bits), so ids sort roughly by creation time and
 * stay unique across restarts and across processes sharing one store.
 */
import { markUuid, randomIdHex } from '../runtime/random-id';

export type AppServerIdPrefix = 'thread_' | 'turn_' | 'item_';

/** The 32 hex digits of a fresh UUID v7 (RFC 9562), without dashes. */
export function uuidV7Hex(now: number = Date.now()): string {
  // 48 bits fit a double exactly; dividing keeps the timestamp out of 32-bit bitwise operators.
  let millis = Math.max(0, Math.floor(now));
  return randomIdHex((bytes, at) => {
    for (let index = 5; index >= 0; index -= 1) {
      bytes[at + index] = millis % 256;
      millis = Math.floor(millis / 256);
    }
    markUuid(bytes, at, 7);
  });
}

export function newAppServerId(prefix: AppServerIdPrefix): string {
  return `${prefix}${uuidV7Hex()}`;
}

export const newThreadId = (): string => newAppServerId('thread_');
export const newTurnId = (): string => newAppServerId('turn_');
export const newItemId = (): string => newAppServerId('item_');
