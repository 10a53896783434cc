/** The reported thread status (docs/spec/protocol.md §8.1): the first row that applies. Pure. */
import type { ThreadStatus } from '../model/types';

export interface ThreadStatusFacts {
  /** The in-memory closed flag. */
  closed: boolean;
  /** `archivedAt != null`. */
  archived: boolean;
  /** A turn of the thread is active in this server. */
  running: boolean;
}

export function reportedThreadStatus(facts: ThreadStatusFacts): ThreadStatus {
  if (facts.closed) return 'closed';
  if (facts.archived) return 'archived';
  if (facts.running) return 'running';
  return 'idle';
}
