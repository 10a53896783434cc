/**
 * The TypeScript types of the domain's data, every one derived from its definition in data-types.ts
 * so that a type and the schema it is serialized by cannot drift apart.
 */
import type * as data from './data-types';
import type { Infer as InferWire, jsonObject, jsonValue } from './schema-dsl';

export { APPROVAL_DECISIONS } from './data-types';

export type JsonValue = InferWire<ReturnType<typeof jsonValue>>;
export type JsonObject = InferWire<ReturnType<typeof jsonObject>>;

/**
 * The server's view of a wire type: an opaque object (metadata, payload, arguments, provider
 * usage) is `Record<string, unknown>`, because the core passes on what the runtime, the host and
 * the client handed it without re-checking that it is JSON; a client reads the same members as
 * JsonObject (see the typed client).
 */
type ServerSide<T> = T extends readonly unknown[]
  ? { [K in keyof T]: ServerSide<T[K]> }
  : T extends object
    ? string extends keyof T
      ? Record<string, unknown>
      : { [K in keyof T]: ServerSide<T[K]> }
    : T;

type Infer<S> = ServerSide<InferWire<S>>;

export type ThreadStatus = Infer<typeof data.ThreadStatus>;
export type TurnStatus = Infer<typeof data.TurnStatus>;
export type AppItemType = Infer<typeof data.AppItemType>;
export type AppItemStatus = Infer<typeof data.AppItemStatus>;
export type ApprovalDecisionValue = Infer<typeof data.ApprovalDecision>;
export type CompletionReasonValue = Infer<typeof data.CompletionReason>;

export type AppTokenUsage = Infer<typeof data.AppTokenUsage>;
export type AppThread = Infer<typeof data.AppThread>;
export type AppTurnResult = Infer<typeof data.TurnResult>;
export type AppTurn = Infer<typeof data.AppTurn>;
export type AppItem = Infer<typeof data.AppItem>;
export type AppModelInfo = Infer<typeof data.AppModelInfo>;
export type AppToolMetadata = Infer<typeof data.appToolMetadataShape>;

export type ThreadSummary = Infer<typeof data.threadSummaryShape>;
export type ThreadForkSummary = Infer<typeof data.threadForkShape>;
export type ThreadSnapshot = Infer<typeof data.threadSnapshotShape>;
export type ThreadPage = Infer<typeof data.threadPageShape>;
export type ThreadArchival = Infer<typeof data.threadArchivalShape>;
export type ThreadUnsubscription = Infer<typeof data.threadUnsubscriptionShape>;
export type TurnStart = Infer<typeof data.turnStartShape>;
export type TurnCompaction = Infer<typeof data.turnCompactionShape>;
export type TurnQueued = Infer<typeof data.turnQueuedShape>;
export type TurnCancellation = Infer<typeof data.turnCancellationShape>;

/** The event types keep the names of the notifications that carry them verbatim (docs/spec/protocol.md §4). */
export type TurnCompletedParams = Infer<typeof data.turnCompletionShape>;
export type ApprovalRequestParams = Infer<typeof data.approvalRequestShape>;
export type AgentMessageDeltaParams = Infer<typeof data.agentMessageDeltaShape>;
export type ToolCallDeltaParams = Infer<typeof data.toolCallDeltaShape>;
export type ApprovalResolvedParams = Infer<typeof data.approvalResolutionShape>;
export type ErrorWarningParams = Infer<typeof data.errorWarningShape>;

export type McpServerInfo = Infer<typeof data.mcpServerInfoShape>;
export type McpServerList = Infer<typeof data.mcpServerListShape>;
