/**
 * The random part of generated ids, drawn from the system generator in blocks of 256 ids: every
 * streamed delta's event and every item gets an id, and `randomBytes(16)` per id costs ~15× as much
 * (a native call and a buffer each) as encoding 16 bytes of a filled block.
 */
import { randomFillSync } from 'node:crypto';

/** Sets an id format's fixed bits (version, variant, timestamp) in `bytes[at]`…`bytes[at + 15]`. */
export type IdBitsWriter = (bytes: Buffer, at: number) => void;

/** Sets a UUID's version nibble and its RFC 9562 variant bits in the 16 bytes at `bytes[at]`. */
export function markUuid(bytes: Buffer, at: number, version: 4 | 7): void {
  bytes[at + 6] = (bytes[at + 6] & 0x0f) | (version << 4);
  bytes[at + 8] = (bytes[at + 8] & 0x3f) | 0x80;
}

const ID_BYTES = 16;
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/** 32 lowercase hex digits: 16 fresh random bytes with `writeFixedBits` applied. */
export function randomIdHex(writeFixedBits: IdBitsWriter): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  writeFixedBits(pool, offset);
  const hex = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return hex;
}
