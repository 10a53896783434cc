/**
 * The store port: what the domain needs of a store, and nothing of how it stores. The SQLite store
 * (src/persistence/sqlite) implements it today; a second implementation (PostgreSQL) implements
 * the same interface and runs the same suites. Sequence numbers (`changeSeq`, `createdSeq`) are
 * assigned by the domain's per-thread counters and kept by the store.
 */
import type { Message } from '../../runtime/messages';
import type { AppTurn } from '../model/types';
import type {
  CompactionCompletion,
  ForkOutcome,
  ForkRequest,
  ItemReplayQuery,
  ItemVersion,
  NewThread,
  NewTurn,
  StoredThread,
  StoredConversation,
  StoredThreadSnapshot,
  ThreadListPage,
  ThreadListQuery,
  TurnFinish,
} from './records';

export interface ThreadRecords {
  create(thread: NewThread): Promise<StoredThread>;
  get(threadId: string): Promise<StoredThread | null>;
  /** A cursor this store did not hand out rejects with the `InvalidCursor` DomainError. */
  list(query?: ThreadListQuery): Promise<ThreadListPage>;
  /** null when the thread does not exist. */
  archive(threadId: string, now: number): Promise<StoredThread | null>;
  /** Shallow patch; a `null` value deletes the key. null when the thread does not exist. */
  patchMetadata(threadId: string, patch: Record<string, unknown>, now: number): Promise<StoredThread | null>;
}

export interface ItemRecords {
  /** Writes one item state (insert or replace by itemId). */
  upsert(version: ItemVersion): Promise<void>;
  /** Writes item states atomically, in order (new items get positions in that order). */
  upsertMany(versions: readonly ItemVersion[]): Promise<void>;
  /** The thread's highest stored `changeSeq` (0 when none). */
  lastChangeSeq(threadId: string): Promise<number>;
}

export interface ConversationRecords {
  /** The thread's conversation history, in order. */
  load(threadId: string): Promise<Message[]>;
  /** The history a run starts from, with the prompt-size figure that fits it (if any). */
  loadForRun(threadId: string): Promise<StoredConversation>;
}

export interface ThreadStore {
  readonly threads: ThreadRecords;
  readonly items: ItemRecords;
  readonly conversations: ConversationRecords;
  /** The thread, its turns and the stored item window; null when the thread does not exist. */
  readThread(threadId: string, query?: ItemReplayQuery): Promise<StoredThreadSnapshot | null>;
  /** The running turn and the thread's active turn, atomically; one running turn per thread. */
  beginTurn(turn: NewTurn): Promise<AppTurn>;
  /** The turn's terminal state, its final items and its messages, in one transaction. */
  /**
   * false, writing nothing, when the turn is no longer running: another instance already ended it
   * as lost (docs/spec/postgres.md §2), and terminal statuses are final (§8.2).
   */
  finishTurn(finish: TurnFinish): Promise<boolean>;
  /** Like finishTurn, but kept and retried with the next transaction when the write fails now. */
  deferTurnFinish(finish: TurnFinish): Promise<void>;
  forkThread(request: ForkRequest): Promise<ForkOutcome>;
  /** A `contextCompaction` item's completion and the history it replaces, in one transaction. */
  completeCompaction(completion: CompactionCompletion): Promise<void>;
}

export const THREAD_STORE = Symbol('THREAD_STORE');
