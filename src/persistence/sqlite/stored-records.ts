/** What the repositories return, and how stored rows become protocol objects. */
import type { AppItem, AppThread, ThreadStatus } from '../../core/model/types';
import { maskMcpServers } from '../../core/mcp/secret-mask';

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
  /** mcp.md §1: thread-level MCP servers as given to `thread/start` (unmasked); null when none. */
  mcpServers: Record<string, unknown> | null;
}

/** history.md §2: the thread and turn a fork was copied from. */
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
  };
}

/**
 * One item in a given state, with the thread change-counter values of its creation and of that
 * state (protocol.md §8.8). Creation order within a thread equals `createdSeq` order.
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
