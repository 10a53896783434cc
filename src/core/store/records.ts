/**
 * The store port's data: what the domain hands a store and what a store returns (every store
 * implementation — SQLite today — reads and writes these), and how stored rows become protocol
 * objects.
 */
import type { PromptSize } from '../../runtime/compaction/prompt-size-tracker';
import type { Message } from '../../runtime/messages';
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import type { AppItem, AppThread, AppTurn, ThreadStatus, TurnStatus } from '../model/types';
import type { StoredReplayWindow } from './item-replay';
import { maskMcpServers } from '../model/mcp-secret-mask';

/** A stored thread; its reported status (§8.1) also depends on in-memory state, see `toAppThread`. */
export interface StoredThread {
  threadId: string;
  agentKey: string;
  cwd: string | null;
  metadata: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
  activeTurnId: string | null;
  forkedFrom: ForkOrigin | null;
  /** docs/spec/mcp.md §1: thread-level MCP servers as given at the thread's start (unmasked); null when none. */
  mcpServers: Record<string, unknown> | null;
  /** docs/spec/sandbox.md §1: the thread's effective mode; null for threads stored before v1.2. */
  sandbox: SandboxMode | null;
}

/** docs/spec/history.md §2: the thread and turn a fork was copied from. */
export interface ForkOrigin {
  threadId: string;
  turnId: string;
}

/** The wire thread, with the status the server computed (closed flag, active turn, archivedAt). */
export function toAppThread(thread: StoredThread, status: ThreadStatus): AppThread {
  return {
    threadId: thread.threadId,
    agentKey: thread.agentKey,
    cwd: thread.cwd,
    status,
    metadata: thread.metadata,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    archivedAt: thread.archivedAt,
    forkedFrom: thread.forkedFrom,
    ...(thread.mcpServers === null ? {} : { mcpServers: maskMcpServers(thread.mcpServers) }),
    ...(thread.sandbox === null ? {} : { sandbox: thread.sandbox }),
  };
}

/**
 * One item in a given state, with the thread change-counter values of its creation and of that
 * state (docs/spec/protocol.md §8.8). Creation order within a thread equals `createdSeq` order.
 */
export interface ItemVersion {
  item: AppItem;
  createdSeq: number;
  changeSeq: number;
}

/** A running turn as restart recovery sees it. */
export interface TurnOwnership {
  turnId: string;
  threadId: string;
  ownerPid: number;
  ownerHost: string;
  /** The owner's processStartToken; null on legacy rows. */
  ownerToken: string | null;
}

export interface NewThread {
  threadId: string;
  agentKey: string;
  cwd: string | null;
  metadata: Record<string, unknown>;
  /** createdAt = updatedAt = now. */
  now: number;
  forkedFrom?: ForkOrigin;
  /** docs/spec/mcp.md §1: thread-level MCP servers, stored verbatim. */
  mcpServers?: Record<string, unknown>;
  /** docs/spec/sandbox.md §1: the thread's effective mode. */
  sandbox?: SandboxMode;
}

export interface ThreadListQuery {
  archived?: boolean;
  includeArchived?: boolean;
  /** Default 50; the caller validates 1…500. */
  limit?: number;
  /** A `nextCursor` of a previous page; anything else throws InvalidThreadCursorError. */
  cursor?: string;
}

export interface ThreadListPage {
  threads: StoredThread[];
  nextCursor: string | null;
}

export interface NewTurn {
  turnId: string;
  threadId: string;
  runId: string | null;
  /** The start (or follow-up) input, verbatim. */
  input: Record<string, unknown>[];
  startedAt: number;
  /** Default: this process. */
  ownerPid?: number;
  /** Default: os.hostname(). */
  ownerHost?: string;
  /** Default: this process's start token (with the default pid only). */
  ownerToken?: string | null;
  /** docs/spec/sandbox.md §1: the turn's effective mode. */
  sandbox?: SandboxMode;
}

export interface TurnCompletion {
  status: Exclude<TurnStatus, 'running'>;
  completedAt: number;
  /** turnCompleted params without threadId, turnId, runId, status (docs/spec/protocol.md §4.6). */
  result: Record<string, unknown>;
}

/** What reads and resumes return, as stored (the live turn is overlaid by the caller). */
export interface StoredThreadSnapshot {
  thread: StoredThread;
  /** All turns, in creation order. */
  turns: AppTurn[];
  /** Finish with `completeReplay` (item-replay.ts) once the live turn's versions are known. */
  items: StoredReplayWindow;
}

export interface ForkRequest {
  sourceThreadId: string;
  /** Default: the source's last finished turn. */
  turnId?: string;
  newThreadId: string;
  /** Default: the source's metadata. */
  metadata?: Record<string, unknown>;
  now: number;
  newTurnId: () => string;
  newItemId: () => string;
}

export type ForkOutcome =
  | { kind: 'forked'; thread: StoredThread; origin: ForkOrigin }
  | { kind: 'threadNotFound' }
  | { kind: 'turnNotFound' }
  | { kind: 'noFinishedTurn' };

export interface ItemReplayQuery {
  /** Return items whose latest change is later than this item's creation; unknown id → all items. */
  afterItemId?: string;
  /** At most this many items, applied after the afterItemId filter. */
  limit?: number;
}

/**
 * `messages`: RunResult.newMessages (or only the user message of a rejected run), appended to the
 * history — unless `compactedHistory` replaces it (docs/spec/history.md §1).
 */
export interface TurnFinish extends ConversationWrite {
  threadId: string;
  turnId: string;
  completion: TurnCompletion;
  /** Final states of the turn's items not yet persisted (e.g. interrupted completions). */
  items?: readonly ItemVersion[];
  /** The thread's new updatedAt. */
  now: number;
}

/** A `contextCompaction` item's completion that took effect (docs/spec/history.md §1 durability). */
export interface CompactionCompletion {
  threadId: string;
  turnId: string;
  /** The item's completed state. */
  version: ItemVersion;
  /** The compacted conversation (non-system messages) that replaces the stored one. */
  history: readonly Message[];
}

/** What a finished turn does to the history. */
export interface ConversationWrite {
  /** Appended after the stored history (§8.10), unless `compactedHistory` is present. */
  messages: readonly Message[];
  /** docs/spec/history.md §1 (RunResult.compactedHistory): replaces the stored history instead. */
  compactedHistory?: readonly Message[];
  /** RunResult.promptSize for the history as written; absent: the thread keeps none. */
  promptSize?: PromptSize;
}

/** The history a run starts from, with the prompt-size figure that fits it (if any). */
export interface StoredConversation {
  messages: Message[];
  promptSize?: PromptSize;
}
