/**
 * The typed client's types, derived from the protocol registry (docs/spec/protocol.md §11.1, §13): params from
 * the registry's DTOs, results and notification params from the message definitions.
 */
import type { MessageTypes } from '../protocols/app-server-v1/messages';
import type { ParamsTypes } from '../protocols/app-server-v1/method-types';
import type {
  ClientRequestMethod,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
} from '../protocols/app-server-v1/method-index';
import type { RequestId } from '../rpc/request-id';

export type { JsonObject, JsonValue } from '../core/model/types';
export type { RequestId } from '../rpc/request-id';
export type { ParamsOf, ResultOf } from '../protocols/app-server-v1/method-types';

/** A client request method (what `request()` accepts). */
export type ClientMethod = ClientRequestMethod;

// The named params and result types, by the type names of the method definitions (no method name here).
export type InitializeParams = ParamsTypes['InitializeParams'];
export type ClientInfo = InitializeParams['clientInfo'];
export type ClientCapabilities = NonNullable<InitializeParams['capabilities']>;
export type ThreadStartParams = ParamsTypes['ThreadStartParams'];
export type ThreadResumeParams = ParamsTypes['ThreadResumeParams'];
export type ThreadReadParams = ParamsTypes['ThreadReadParams'];
export type ThreadListParams = ParamsTypes['ThreadListParams'];
export type ThreadArchiveParams = ParamsTypes['ThreadArchiveParams'];
export type ThreadUnsubscribeParams = ParamsTypes['ThreadUnsubscribeParams'];
export type TurnStartParams = ParamsTypes['TurnStartParams'];
export type TurnControlParams = ParamsTypes['TurnControlParams'];
export type TurnInterruptParams = ParamsTypes['TurnInterruptParams'];
export type ApprovalResolveParams = ParamsTypes['ApprovalResolveParams'];
export type ModelListParams = ParamsTypes['ModelListParams'];
export type ThreadMetadataUpdateParams = ParamsTypes['ThreadMetadataUpdateParams'];
export type ThreadForkParams = ParamsTypes['ThreadForkParams'];
export type ThreadCompactParams = ParamsTypes['ThreadCompactParams'];
export type McpServerListParams = ParamsTypes['McpServerListParams'];

export type InitializeResponse = MessageTypes['InitializeResponse'];
export type ThreadStartResponse = MessageTypes['ThreadStartResponse'];
export type ThreadResumeResponse = MessageTypes['ThreadResumeResponse'];
export type ThreadReadResponse = MessageTypes['ThreadReadResponse'];
export type ThreadListResponse = MessageTypes['ThreadListResponse'];
export type ThreadArchiveResponse = MessageTypes['ThreadArchiveResponse'];
export type ThreadUnsubscribeResponse = MessageTypes['ThreadUnsubscribeResponse'];
export type TurnStartResponse = MessageTypes['TurnStartResponse'];
export type TurnControlResponse = MessageTypes['TurnControlResponse'];
export type TurnInterruptResponse = MessageTypes['TurnInterruptResponse'];
export type ModelListResponse = MessageTypes['ModelListResponse'];
export type SchemaExportResponse = MessageTypes['SchemaExportResponse'];
export type ThreadMetadataUpdateResponse = MessageTypes['ThreadMetadataUpdateResponse'];
export type ThreadForkResponse = MessageTypes['ThreadForkResponse'];
export type ThreadCompactResponse = MessageTypes['ThreadCompactResponse'];
export type McpServerListResponse = MessageTypes['McpServerListResponse'];

export type AppThread = MessageTypes['AppThread'];
export type AppTurn = MessageTypes['AppTurn'];
export type AppItem = MessageTypes['AppItem'];
export type AppModelInfo = MessageTypes['AppModelInfo'];
export type AppTokenUsage = MessageTypes['AppTokenUsage'];
export type ApprovalDecision = MessageTypes['ApprovalDecision'];
export type ApprovalRequestParams = MessageTypes['ApprovalRequestParams'];
export type ApprovalResponse = MessageTypes['ApprovalResponse'];

export type ServerNotificationMethod = (typeof SERVER_NOTIFICATIONS)[number]['method'];
export type NotificationParamsOf<M extends ServerNotificationMethod> = MessageTypes[Extract<
  (typeof SERVER_NOTIFICATIONS)[number],
  { readonly method: M }
>['paramsTypeName']];

export type ServerRequestMethod = (typeof SERVER_REQUESTS)[number]['method'];
export type ServerRequestParamsOf<M extends ServerRequestMethod> = MessageTypes[Extract<
  (typeof SERVER_REQUESTS)[number],
  { readonly method: M }
>['paramsTypeName']];

/** One notification message of method `M`, e.g. `NotificationMessageOf<'turn/completed'>`. */
export interface NotificationMessageOf<M extends ServerNotificationMethod> {
  jsonrpc: '2.0';
  method: M;
  params: NotificationParamsOf<M>;
}

export type ServerNotificationMessage = {
  [M in ServerNotificationMethod]: NotificationMessageOf<M>;
}[ServerNotificationMethod];

export type ServerRequestMessage = {
  [M in ServerRequestMethod]: { jsonrpc: '2.0'; id: string; method: M; params: ServerRequestParamsOf<M> };
}[ServerRequestMethod];

/** A response the client did not wait for (e.g. one that arrived after its request timed out). */
export interface ResponseMessage {
  jsonrpc: '2.0';
  id: RequestId;
  result: unknown;
  method?: undefined;
}

export interface ErrorResponseMessage {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
  method?: undefined;
}

/** What `nextMessage` / `waitFor` return; narrow with `m.method === 'turn/completed'`. */
export type ServerMessage =
  ServerNotificationMessage | ServerRequestMessage | ResponseMessage | ErrorResponseMessage;
