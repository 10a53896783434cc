/**
 * Joining a thread whose turn runs on another instance (docs/spec/postgres.md §2 "resume across instances"):
 * the owner's live snapshot says up to which of its events it includes (a RelayMark); the
 * requester must get exactly the owner's later events. A seam is opened before the snapshot is
 * asked for; the owner's events of the thread that arrive meanwhile are held back (they go to the
 * other subscribers, never to the requester) until the mark is known; then `join` runs between the
 * last included event and the first later one.
 */
import type { RelayMark } from './thread-event-relay';

export interface ThreadSeam {
  /** The snapshot includes the owner's events up to `mark`. */
  at(mark: RelayMark): void;
  /** No snapshot came: nothing joins, held-back events go on. */
  cancel(): void;
}

export interface RemoteThreadJoin {
  markOf(threadId: string): RelayMark;
  openSeam(threadId: string, subscriberId: string, join: () => void): ThreadSeam;
  /** Runs `step` once the subscriber's seam on the thread joined (now when there is none). */
  afterJoin(threadId: string, subscriberId: string, step: () => void): void;
}

export const REMOTE_THREAD_JOIN = Symbol('REMOTE_THREAD_JOIN');
