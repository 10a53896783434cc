/**
 * What the thread service is asked (docs/spec/protocol.md §3.3–§3.6, docs/spec/history.md §2), independent of how a
 * protocol validates it: the v1 params DTOs implement these, so the compiler keeps them in step.
 */
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';

export interface ThreadStartRequest {
  agentKey?: string;
  cwd?: string | null;
  metadata?: Record<string, unknown>;
  /** docs/spec/mcp.md §1: thread-level MCP servers (validated by the protocol), stored verbatim. */
  mcpServers?: Record<string, unknown>;
  /** docs/spec/sandbox.md §1: a mode no looser than the server's. */
  sandbox?: SandboxMode;
}

export interface ThreadResumeRequest {
  threadId: string;
  /** `false` reads without subscribing. */
  subscribe?: boolean;
  afterItemId?: string;
}

export interface ThreadReadRequest {
  threadId: string;
  afterItemId?: string;
  limit?: number;
}

export interface ThreadListRequest {
  archived?: boolean;
  includeArchived?: boolean;
  limit?: number;
  /** A `nextCursor` of a previous page. */
  cursor?: string;
}

export interface ThreadForkRequest {
  threadId: string;
  /** The turn to fork after; the last finished one when absent. */
  turnId?: string;
  metadata?: Record<string, unknown>;
}
