/**
 * The domain's data, defined once with the schema DSL: the data types of docs/spec/protocol.md §5 as named
 * definitions, plus the unnamed shapes core hands to a protocol (a started thread, a snapshot, a
 * completed turn, an approval request, …). Protocols name those shapes as their own results and
 * notification params; types.ts derives every TypeScript type from here.
 */
import { COMPLETION_REASONS } from '../../runtime/events/types';
import { SANDBOX_MODES } from '../../runtime/sandbox/sandbox-mode';
import {
  array,
  boolean,
  define,
  integer,
  jsonObject,
  literal,
  nullable,
  object,
  oneOfStrings,
  optional,
  string,
} from './schema-dsl';

export const APPROVAL_DECISIONS = ['allow', 'allow_session', 'deny', 'timeout'] as const;

// §5.2 enumerations
export const ThreadStatus = define('ThreadStatus', oneOfStrings(['idle', 'running', 'archived', 'closed']));
export const TurnStatus = define(
  'TurnStatus',
  oneOfStrings(['running', 'completed', 'failed', 'interrupted']),
);
export const AppItemType = define(
  'AppItemType',
  oneOfStrings(['userMessage', 'agentMessage', 'toolCall', 'approval', 'error', 'contextCompaction']),
);
export const AppItemStatus = define(
  'AppItemStatus',
  oneOfStrings(['inProgress', 'completed', 'failed', 'interrupted']),
);
export const ApprovalDecision = define('ApprovalDecision', oneOfStrings(APPROVAL_DECISIONS));
/** docs/spec/sandbox.md §1. */
export const SandboxMode = define('SandboxMode', oneOfStrings(SANDBOX_MODES));
/** docs/spec/sandbox.md §4: where a command runs; `payload.sandbox` of bash items and approvals. */
export const SandboxReport = define('SandboxReport', object({ mode: SandboxMode, network: boolean() }));
export const CompletionReason = define('CompletionReason', oneOfStrings(COMPLETION_REASONS));

// §5.7 tokenUsage: snake_case, every member always present, unknown counts null (never 0).
const cacheStatus = oneOfStrings(['provider_reported', 'accounting_missing', 'unsupported']);

export const CacheUsage = define(
  'CacheUsage',
  object({
    status: cacheStatus,
    read_input_tokens: nullable(integer()),
    write_input_tokens: nullable(integer()),
    uncached_input_tokens: nullable(integer()),
    source: nullable(oneOfStrings(['provider_usage', 'adapter_capability'])),
  }),
);

export const AggregateCacheUsage = define(
  'AggregateCacheUsage',
  object({
    status: cacheStatus,
    read_input_tokens: nullable(integer()),
    write_input_tokens: nullable(integer()),
    uncached_input_tokens: nullable(integer()),
    source: literal('aggregate'),
  }),
);

/** The runtime's per-call `TokenUsage` v1 (docs/spec/runtime.md §12.1), verbatim. */
export const TokenUsage = define(
  'TokenUsage',
  object({
    schema_version: literal('vv-agent.token-usage.v1'),
    input_tokens: nullable(integer()),
    output_tokens: nullable(integer()),
    total_tokens: nullable(integer()),
    reasoning_tokens: nullable(integer()),
    usage_source: oneOfStrings(['provider_reported', 'estimated', 'accounting_missing']),
    cache_usage: CacheUsage,
    provider_usage: jsonObject(),
  }),
);

export const AppTokenUsageCycle = define(
  'AppTokenUsageCycle',
  object({ cycle_index: integer(), usage: TokenUsage }),
);

export const AppTokenUsage = define(
  'AppTokenUsage',
  object({
    schema_version: literal('vv-agent.task-token-usage.v1'),
    input_tokens: nullable(integer()),
    output_tokens: nullable(integer()),
    total_tokens: nullable(integer()),
    reasoning_tokens: nullable(integer()),
    cache_usage: AggregateCacheUsage,
    cycles: array(AppTokenUsageCycle),
  }),
);

// §5.3
export const AppThread = define(
  'AppThread',
  object({
    threadId: string(),
    agentKey: string(),
    cwd: nullable(string()),
    status: ThreadStatus,
    metadata: jsonObject(),
    createdAt: integer(),
    updatedAt: integer(),
    archivedAt: nullable(integer()),
    /** docs/spec/history.md §2: null for ordinary threads; optional so v1 messages stay valid. */
    forkedFrom: optional(nullable(object({ threadId: string(), turnId: string() }))),
    /** docs/spec/mcp.md §1: thread-level MCP servers, `env` / `headers` values masked as "***"; absent when none. */
    mcpServers: optional(jsonObject()),
    /** docs/spec/sandbox.md §1: the thread's effective mode; absent on threads stored before v1.2. */
    sandbox: optional(SandboxMode),
  }),
);

/**
 * The terminal members of `turnCompleted` (§4.6) minus threadId/turnId/runId/status. Every member is
 * optional: `{}` while running, `{"error": …}` for a restart-recovered turn.
 */
export const turnResultMembers = {
  finalOutput: optional(string()),
  error: optional(string()),
  completionReason: optional(CompletionReason),
  completionToolName: optional(string()),
  partialOutput: optional(string()),
} as const;

export const TurnResult = define(
  'TurnResult',
  object({
    ...turnResultMembers,
    tokenUsage: optional(AppTokenUsage),
    budgetUsage: optional(jsonObject()),
    budgetExhaustion: optional(jsonObject()),
  }),
);

export const AppTurn = define(
  'AppTurn',
  object({
    turnId: string(),
    threadId: string(),
    runId: nullable(string()),
    status: TurnStatus,
    startedAt: integer(),
    completedAt: nullable(integer()),
    input: array(jsonObject()),
    result: TurnResult,
    /** docs/spec/sandbox.md §1: the turn's effective mode; absent on turns stored before v1.2. */
    sandbox: optional(SandboxMode),
  }),
);

// §5.4: the payload is camelCase and per type; it is described in the spec, carried as an object.
// `contextCompaction` (docs/spec/history.md §1): `{trigger: "auto"|"manual"}` while inProgress; completed
// `{trigger, summary, messagesBefore, messagesAfter, estimatedTokensBefore, estimatedTokensAfter}`
// (no `summary` and `skipped: true` when there was nothing to compact); failed / interrupted
// `{trigger, error}`.
export const appItemMembers = {
  itemId: string(),
  threadId: string(),
  turnId: string(),
  type: AppItemType,
  status: AppItemStatus,
  payload: jsonObject(),
  createdAt: integer(),
  updatedAt: integer(),
} as const;

export const AppItem = define('AppItem', object(appItemMembers));

// §5.6
export const AppModelInfo = define(
  'AppModelInfo',
  object({
    id: string(),
    provider: optional(string()),
    displayName: optional(string()),
    contextLength: optional(integer()),
    supportsTools: boolean(),
    metadata: optional(jsonObject()),
  }),
);

/** camelCase `toolMetadata` of toolCall items (§5.4), without `result_retention`; inside the opaque payload. */
export const appToolMetadataShape = object({
  sideEffect: string(),
  idempotency: string(),
  terminal: boolean(),
  capabilityTags: array(string()),
  costDimensions: array(string()),
});

// The shapes core answers with (docs/spec/protocol.md §3, docs/spec/history.md §2); protocols give them their names.

/** A thread as just started or resumed by its requester: the start result. */
export const threadSummaryShape = object({
  threadId: string(),
  agentKey: string(),
  cwd: nullable(string()),
  status: ThreadStatus,
  /** docs/spec/mcp.md §1: the thread-level MCP servers, masked as in AppThread; absent when none. */
  mcpServers: optional(jsonObject()),
});

/** A fork: the summary plus the origin (docs/spec/history.md §2). */
export const threadForkShape = object({
  threadId: string(),
  agentKey: string(),
  cwd: nullable(string()),
  status: ThreadStatus,
  forkedFrom: object({ threadId: string(), turnId: string() }),
  /** docs/spec/mcp.md §1: copied from the source thread, masked; absent when none. */
  mcpServers: optional(jsonObject()),
});

/** The thread, its turns and an item window (a read, a resume). */
export const threadSnapshotShape = object({
  thread: AppThread,
  turns: array(AppTurn),
  items: array(AppItem),
});

export const threadPageShape = object({ threads: array(AppThread), nextCursor: nullable(string()) });

export const threadArchivalShape = object({ threadId: string(), archived: literal(true) });

export const threadUnsubscriptionShape = object({
  threadId: string(),
  subscribed: literal(false),
  closed: boolean(),
});

/** Compaction (docs/spec/history.md §1): the compaction turn just started. */
export const turnCompactionShape = object({ threadId: string(), turnId: string() });

export const turnStartShape = object({ threadId: string(), turnId: string(), status: literal('running') });

/** Steering or a follow-up accepted into the turn's queue. */
export const turnQueuedShape = object({ threadId: string(), turnId: string(), queued: literal(true) });

export const turnCancellationShape = object({
  threadId: string(),
  turnId: string(),
  cancelled: literal(true),
  /** docs/spec/protocol.md §3.12 v1.2: the follow-ups dropped; present only with `clearFollowUps: true`. */
  clearedFollowUps: optional(integer()),
});

// The events core reports (docs/spec/protocol.md §4), members in the order of the spec's tables.

/** §4.6: how a turn ended. */
export const turnCompletionShape = object({
  threadId: string(),
  turnId: string(),
  runId: string(),
  status: oneOfStrings(['completed', 'failed', 'interrupted']),
  ...turnResultMembers,
  tokenUsage: AppTokenUsage,
  budgetUsage: optional(jsonObject()),
  budgetExhaustion: optional(jsonObject()),
});

/** §4.11, §4.14: a tool call waiting for a decision. */
export const approvalRequestShape = object({
  requestId: string(),
  threadId: string(),
  turnId: string(),
  toolCallId: string(),
  toolName: string(),
  preview: string(),
  arguments: jsonObject(),
  /** docs/spec/sandbox.md §4: present for `bash` — a dialog can say "runs sandboxed, no network". */
  sandbox: optional(SandboxReport),
});

export const approvalResolutionShape = object({
  threadId: string(),
  turnId: string(),
  requestId: string(),
  decision: ApprovalDecision,
  reason: optional(string()),
  metadata: optional(jsonObject()),
});

export const errorWarningShape = object({
  threadId: string(),
  turnId: optional(string()),
  // `message_too_large`: sent by the native messaging transport in place of a notification over its limit.
  code: oneOfStrings([
    'run_failed',
    'event_stream',
    'store',
    'follow_up',
    'mcp_server_unavailable',
    'message_too_large',
  ]),
  message: string(),
});

/** `agentMessageTextDelta`: the item's identity and state, `payload.text` = `delta` = the new chunk (§4.8 v1.1). */
export const agentMessageDeltaShape = object({
  ...appItemMembers,
  type: literal('agentMessage'),
  status: literal('inProgress'),
  payload: object({ text: string() }),
  delta: string(),
});

/** `toolCallArgumentsDelta`: the toolCall item right after its `itemStarted`, plus its arguments (§4.9). */
export const toolCallDeltaShape = object({
  ...appItemMembers,
  type: literal('toolCall'),
  status: literal('inProgress'),
  delta: jsonObject(),
});

// docs/spec/mcp.md §5: one server of the MCP server list.
export const mcpServerInfoShape = object({
  name: string(),
  source: oneOfStrings(['config', 'host', 'thread']),
  status: oneOfStrings(['notStarted', 'starting', 'ready', 'failed']),
  transport: oneOfStrings(['stdio', 'http']),
  tools: array(object({ name: string(), exposedName: string(), description: string() })),
  error: optional(string()),
});

export const mcpServerListShape = object({ servers: array(mcpServerInfoShape) });
