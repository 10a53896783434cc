import { randomFillSync } from 'node:crypto';

/** Generated ids: a prefix plus 32 lowercase hex characters, a UUID v4 without dashes (runtime.md). */
export type IdPrefix = 'run_' | 'trace_' | 'evt_' | 'approval_' | 'steer_';

const UUID_BYTES = 16;
/**
 * Random bytes are drawn in blocks and hex-encoded 16 at a time: every streamed delta gets an
 * `event_id`, and `randomUUID()` plus stripping its dashes with a regex cost ~4× as much per id.
 */
const pool = Buffer.alloc(UUID_BYTES * 256);
let offset = pool.length;

export function newId(prefix: IdPrefix): string {
  if (offset + UUID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  pool[offset + 6] = (pool[offset + 6] & 0x0f) | 0x40; // version 4
  pool[offset + 8] = (pool[offset + 8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = pool.toString('hex', offset, offset + UUID_BYTES);
  offset += UUID_BYTES;
  return prefix + hex;
}
