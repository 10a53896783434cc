/**
 * The server → client half of the protocol's single source (docs/spec/protocol.md §11.1): every result,
 * notification params and data type by the name the registry uses for it.
 */
import * as dataTypes from '../../../core/model/data-types';
import * as notifications from './notifications';
import * as results from './results';
import type { Definition, Infer } from '../../../core/model/schema-dsl';
import type { CompletionReason as CompletionReasonValue } from '../../../runtime/events/types';

export * from '../../../core/model/schema-dsl';
export * from './schema-document';

const {
  ThreadStatus,
  TurnStatus,
  AppItemType,
  AppItemStatus,
  ApprovalDecision,
  CacheUsage,
  AggregateCacheUsage,
  TokenUsage,
  AppTokenUsageCycle,
  AppTokenUsage,
  AppThread,
  TurnResult,
  AppTurn,
  AppItem,
  AppModelInfo,
} = dataTypes;
// Typed by its own module: the declaration files would otherwise name the runtime's type through
// the package root, and every type that reads MESSAGE_DEFINITIONS (the client's) would load it all.
const CompletionReason: Definition<CompletionReasonValue> = dataTypes.CompletionReason;

/** Every named definition; keys equal the definitions' names. */
export const MESSAGE_DEFINITIONS = {
  ThreadStatus,
  TurnStatus,
  AppItemType,
  AppItemStatus,
  ApprovalDecision,
  CompletionReason,
  CacheUsage,
  AggregateCacheUsage,
  TokenUsage,
  AppTokenUsageCycle,
  AppTokenUsage,
  AppThread,
  TurnResult,
  AppTurn,
  AppItem,
  AppModelInfo,
  InitializeCapabilities: results.InitializeCapabilities,
  InitializeResponse: results.InitializeResponse,
  ThreadStartResponse: results.ThreadStartResponse,
  ThreadResumeResponse: results.ThreadResumeResponse,
  ThreadReadResponse: results.ThreadReadResponse,
  ThreadListResponse: results.ThreadListResponse,
  ThreadArchiveResponse: results.ThreadArchiveResponse,
  ThreadUnsubscribeResponse: results.ThreadUnsubscribeResponse,
  TurnStartResponse: results.TurnStartResponse,
  TurnControlResponse: results.TurnControlResponse,
  TurnInterruptResponse: results.TurnInterruptResponse,
  ApprovalResolveResponse: results.ApprovalResolveResponse,
  ModelListResponse: results.ModelListResponse,
  SchemaExportResponse: results.SchemaExportResponse,
  ThreadMetadataUpdateResponse: results.ThreadMetadataUpdateResponse,
  ThreadForkResponse: results.ThreadForkResponse,
  ThreadCompactResponse: results.ThreadCompactResponse,
  ThreadStartedParams: notifications.ThreadStartedParams,
  ThreadArchivedParams: notifications.ThreadArchivedParams,
  ThreadClosedParams: notifications.ThreadClosedParams,
  ThreadStatusChangedParams: notifications.ThreadStatusChangedParams,
  TurnStartedParams: notifications.TurnStartedParams,
  TurnCompletedParams: notifications.TurnCompletedParams,
  AgentMessageDeltaParams: notifications.AgentMessageDeltaParams,
  ToolCallDeltaParams: notifications.ToolCallDeltaParams,
  ApprovalRequestParams: notifications.ApprovalRequestParams,
  ApprovalResolvedParams: notifications.ApprovalResolvedParams,
  ErrorWarningParams: notifications.ErrorWarningParams,
  ThreadUpdatedParams: notifications.ThreadUpdatedParams,
  ApprovalResponse: notifications.ApprovalResponse,
  McpServerListResponse: results.McpServerListResponse,
} as const;

export type MessageTypeName = keyof typeof MESSAGE_DEFINITIONS;

/** The TypeScript type of every definition, by name. */
export type MessageTypes = {
  [K in MessageTypeName]: Infer<(typeof MESSAGE_DEFINITIONS)[K]>;
};

export function findMessageDefinition(name: string): Definition<unknown> | undefined {
  return Object.prototype.hasOwnProperty.call(MESSAGE_DEFINITIONS, name)
    ? (MESSAGE_DEFINITIONS as Record<string, Definition<unknown>>)[name]
    : undefined;
}
