/**
 * The typed client's types, derived from the protocol registry (docs/spec/protocol.md §11.1, §13): params from
 * the registry's DTOs, results and notification params from the message definitions.
 */
import type { MessageTypes } from '../protocols/app-server-v1/messages';
import type {
  ClientRequestMethod,
  METHOD_INDEX,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
} from '../protocols/app-server-v1/method-index';
import type { PARAMS_DTOS } from '../protocols/app-server-v1/registry';
import type { RequestId } from '../rpc/request-id';

export type { JsonObject, JsonValue } from '../core/model/types';
export type { RequestId } from '../rpc/request-id';

/** A client request method (what `request()` accepts). */
export type ClientMethod = ClientRequestMethod;

type RequestSpec<M extends ClientMethod> = Extract<(typeof METHOD_INDEX)[number], { readonly method: M }>;

/** The params a method accepts: the instance type of its registry DTO (`{}` for `schema/export`). */
export type ParamsOf<M extends ClientMethod> = M extends keyof typeof PARAMS_DTOS
  ? InstanceType<(typeof PARAMS_DTOS)[M]>
  : Record<string, never>;

/** The result type of a method, by the registry's `resultTypeName`. */
export type ResultOf<M extends ClientMethod> = MessageTypes[RequestSpec<M>['resultTypeName'] &
  keyof MessageTypes];

// Compile-time check: every result type name of the registry has a message definition.
type UndefinedResultTypes = Exclude<RequestSpec<ClientMethod>['resultTypeName'], keyof MessageTypes>;
const everyResultTypeIsDefined: [UndefinedResultTypes] extends [never] ? true : UndefinedResultTypes = true;
void everyResultTypeIsDefined;

export type InitializeParams = ParamsOf<'initialize'>;
export type ClientInfo = InitializeParams['clientInfo'];
export type ClientCapabilities = NonNullable<InitializeParams['capabilities']>;
export type ThreadStartParams = ParamsOf<'thread/start'>;
export type ThreadResumeParams = ParamsOf<'thread/resume'>;
export type ThreadReadParams = ParamsOf<'thread/read'>;
export type ThreadListParams = ParamsOf<'thread/list'>;
export type ThreadArchiveParams = ParamsOf<'thread/archive'>;
export type ThreadUnsubscribeParams = ParamsOf<'thread/unsubscribe'>;
export type TurnStartParams = ParamsOf<'turn/start'>;
export type TurnControlParams = ParamsOf<'turn/steer'>;
export type TurnInterruptParams = ParamsOf<'turn/interrupt'>;
export type ApprovalResolveParams = ParamsOf<'approval/resolve'>;
export type ModelListParams = ParamsOf<'model/list'>;
export type ThreadMetadataUpdateParams = ParamsOf<'thread/metadata/update'>;
export type ThreadForkParams = ParamsOf<'thread/fork'>;
export type ThreadCompactParams = ParamsOf<'thread/compact'>;
export type McpServerListParams = ParamsOf<'mcpServer/list'>;

export type InitializeResponse = ResultOf<'initialize'>;
export type ThreadStartResponse = ResultOf<'thread/start'>;
export type ThreadResumeResponse = ResultOf<'thread/resume'>;
export type ThreadReadResponse = ResultOf<'thread/read'>;
export type ThreadListResponse = ResultOf<'thread/list'>;
export type ThreadArchiveResponse = ResultOf<'thread/archive'>;
export type ThreadUnsubscribeResponse = ResultOf<'thread/unsubscribe'>;
export type TurnStartResponse = ResultOf<'turn/start'>;
export type TurnControlResponse = ResultOf<'turn/steer'>;
export type TurnInterruptResponse = ResultOf<'turn/interrupt'>;
export type ModelListResponse = ResultOf<'model/list'>;
export type SchemaExportResponse = ResultOf<'schema/export'>;
export type ThreadMetadataUpdateResponse = ResultOf<'thread/metadata/update'>;
export type ThreadForkResponse = ResultOf<'thread/fork'>;
export type ThreadCompactResponse = ResultOf<'thread/compact'>;
export type McpServerListResponse = ResultOf<'mcpServer/list'>;

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
