/** Params of the `thread/*` methods (docs/spec/protocol.md §3.3–§3.8), in the order of each params table. */
import type {
  ThreadForkRequest,
  ThreadListRequest,
  ThreadReadRequest,
  ThreadResumeRequest,
  ThreadStartRequest,
} from '../../../core/threads/thread-requests';
import {
  OptionalBoolean,
  RequiredObject,
  OptionalIntegerBetween,
  OptionalObject,
  OptionalOneOf,
  OptionalPositiveInteger,
  OptionalString,
  OptionalStringOrNull,
  RequiredString,
} from './param-rules';
import { SANDBOX_MODES, type SandboxMode } from '../../../runtime/sandbox/sandbox-mode';

/** `thread/list` page size bounds (§3.6). */
export const THREAD_LIST_LIMIT = { min: 1, max: 500, default: 50 } as const;

export class ThreadStartParamsDto implements ThreadStartRequest {
  /** Default `"default"`; empty allowed. */
  @OptionalString()
  agentKey?: string;

  /** Stored verbatim; default `null`. */
  @OptionalStringOrNull()
  cwd?: string | null;

  /** Default `{}`; values are arbitrary JSON. */
  @OptionalObject()
  metadata?: Record<string, unknown>;

  /** docs/spec/mcp.md §1: thread-level MCP servers; members are checked by `mcpServersIssues`. */
  @OptionalObject()
  mcpServers?: Record<string, unknown>;

  /** docs/spec/sandbox.md §1: only stricter than the server's mode (the service checks that). */
  @OptionalOneOf(SANDBOX_MODES)
  sandbox?: SandboxMode;
}

export class ThreadResumeParamsDto implements ThreadResumeRequest {
  @RequiredString()
  threadId!: string;

  /** Default `true`. */
  @OptionalBoolean()
  subscribe?: boolean;

  @OptionalString()
  afterItemId?: string;
}

export class ThreadReadParamsDto implements ThreadReadRequest {
  @RequiredString()
  threadId!: string;

  @OptionalString()
  afterItemId?: string;

  /** Default: all items. */
  @OptionalPositiveInteger()
  limit?: number;
}

export class ThreadListParamsDto implements ThreadListRequest {
  @OptionalBoolean()
  archived?: boolean;

  /** Default `false`. */
  @OptionalBoolean()
  includeArchived?: boolean;

  /** Default 50. */
  @OptionalIntegerBetween(THREAD_LIST_LIMIT.min, THREAD_LIST_LIMIT.max)
  limit?: number;

  /** A `nextCursor` from a previous call; the handler reports `/cursor` `is invalid` for anything else. */
  @OptionalString()
  cursor?: string;
}

export class ThreadArchiveParamsDto {
  @RequiredString()
  threadId!: string;
}

export class ThreadUnsubscribeParamsDto {
  @RequiredString()
  threadId!: string;
}

/** docs/spec/history.md §3. */
export class ThreadMetadataUpdateParamsDto {
  @RequiredString()
  threadId!: string;

  /** A shallow patch: `null` deletes the key. */
  @RequiredObject()
  metadata!: Record<string, unknown>;
}

/** docs/spec/history.md §2. */
export class ThreadForkParamsDto implements ThreadForkRequest {
  @RequiredString()
  threadId!: string;

  /** Default: the last finished turn. */
  @OptionalString()
  turnId?: string;

  /** Default: the source's metadata. */
  @OptionalObject()
  metadata?: Record<string, unknown>;
}

/** docs/spec/history.md §1. */
export class ThreadCompactParamsDto {
  @RequiredString()
  threadId!: string;
}
