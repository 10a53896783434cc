import { randomUUID } from 'node:crypto';

/** Generated ids: a prefix plus 32 lowercase hex characters (a UUID without dashes). */
export type IdPrefix = 'run_' | 'trace_' | 'evt_' | 'approval_' | 'steer_';

export function newId(prefix: IdPrefix): string {
  return prefix + randomUUID().replace(/-/g, '');
}
