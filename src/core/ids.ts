/**
 * Server-generated ids (protocol.md §5.1): a prefix plus 32 lowercase hex characters. The hex is a
 * UUID v7 (48-bit epoch-ms timestamp, then random bits), so ids sort roughly by creation time and
 * stay unique across restarts and across processes sharing one store.
 */
import { randomBytes } from 'node:crypto';

export type AppServerIdPrefix = 'thread_' | 'turn_' | 'item_';

/** The 32 hex digits of a fresh UUID v7 (RFC 9562), without dashes. */
export function uuidV7Hex(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  const millis = BigInt(Math.max(0, Math.floor(now)));
  for (let index = 0; index < 6; index += 1) {
    bytes[index] = Number((millis >> BigInt(8 * (5 - index))) & 0xffn);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
  return bytes.toString('hex');
}

export function newAppServerId(prefix: AppServerIdPrefix): string {
  return `${prefix}${uuidV7Hex()}`;
}

export const newThreadId = (): string => newAppServerId('thread_');
export const newTurnId = (): string => newAppServerId('turn_');
export const newItemId = (): string => newAppServerId('item_');
