/**
 * The protocol registry (protocol.md §3 method index, §4, §11.1): the single source of truth for
 * method names, params modes, params DTOs, runtime needs and result / params type names. The request
 * router and the params validator read it; the schema generator and the typed client derive from it.
 * Declarative on purpose: no behaviour lives here.
 */
import {
  ApprovalResolveParamsDto,
  InitializeParamsDto,
  McpServerListParamsDto,
  ModelListParamsDto,
  ThreadArchiveParamsDto,
  ThreadCompactParamsDto,
  ThreadForkParamsDto,
  ThreadListParamsDto,
  ThreadMetadataUpdateParamsDto,
  ThreadReadParamsDto,
  ThreadResumeParamsDto,
  ThreadStartParamsDto,
  ThreadUnsubscribeParamsDto,
  TurnControlParamsDto,
  TurnInterruptParamsDto,
  TurnStartParamsDto,
} from './dto';

/**
 * `required`: absent/null → `Missing params`. `optional`: absent/null means all defaults.
 * `empty`: absent, null or exactly `{}` (schema/export). `none`: a notification whose params are ignored.
 */
export type ParamsMode = 'required' | 'optional' | 'empty' | 'none';

export type ParamsDtoClass = new () => object;

export interface ClientMethodSpec {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly paramsMode: ParamsMode;
  /** The class-validator DTO the params are validated against; null when there are no params to validate. */
  readonly paramsDto: ParamsDtoClass | null;
  /** Schema / TypeScript name of the params type (inside `ClientRequest` `$defs`). */
  readonly paramsTypeName: string | null;
  /** §3.0 check (2): fails with `App Server runtime is not configured` when the server has no runner. */
  readonly needsRuntime: boolean;
  /** Schema / TypeScript name of the result type; null for notifications. */
  readonly resultTypeName: string | null;
  /** Section of protocol.md. */
  readonly section: string;
}

/** Keeps the literal DTO and type names in the entry's type: the typed client derives its signatures from them. */
function request<
  M extends string,
  D extends ParamsDtoClass | null,
  P extends string | null,
  R extends string,
>(
  method: M,
  paramsMode: Exclude<ParamsMode, 'none'>,
  paramsDto: D,
  paramsTypeName: P,
  needsRuntime: boolean,
  resultTypeName: R,
  section: string,
): ClientMethodSpec & {
  readonly method: M;
  readonly kind: 'request';
  readonly paramsDto: D;
  readonly paramsTypeName: P;
  readonly resultTypeName: R;
} {
  return {
    method,
    kind: 'request',
    paramsMode,
    paramsDto,
    paramsTypeName,
    needsRuntime,
    resultTypeName,
    section,
  };
}

/** Every client method of the §3 method index, in index order. */
export const CLIENT_METHODS = [
  request(
    'initialize',
    'required',
    InitializeParamsDto,
    'InitializeParams',
    false,
    'InitializeResponse',
    '3.1',
  ),
  {
    method: 'initialized' as const,
    kind: 'notification' as const,
    paramsMode: 'none',
    paramsDto: null,
    paramsTypeName: null,
    needsRuntime: false,
    resultTypeName: null,
    section: '3.2',
  },
  request(
    'thread/start',
    'optional',
    ThreadStartParamsDto,
    'ThreadStartParams',
    true,
    'ThreadStartResponse',
    '3.3',
  ),
  request(
    'thread/resume',
    'required',
    ThreadResumeParamsDto,
    'ThreadResumeParams',
    true,
    'ThreadResumeResponse',
    '3.4',
  ),
  request(
    'thread/read',
    'required',
    ThreadReadParamsDto,
    'ThreadReadParams',
    true,
    'ThreadReadResponse',
    '3.5',
  ),
  request(
    'thread/list',
    'optional',
    ThreadListParamsDto,
    'ThreadListParams',
    true,
    'ThreadListResponse',
    '3.6',
  ),
  request(
    'thread/archive',
    'required',
    ThreadArchiveParamsDto,
    'ThreadArchiveParams',
    true,
    'ThreadArchiveResponse',
    '3.7',
  ),
  request(
    'thread/unsubscribe',
    'required',
    ThreadUnsubscribeParamsDto,
    'ThreadUnsubscribeParams',
    true,
    'ThreadUnsubscribeResponse',
    '3.8',
  ),
  request('turn/start', 'required', TurnStartParamsDto, 'TurnStartParams', true, 'TurnStartResponse', '3.9'),
  request(
    'turn/steer',
    'required',
    TurnControlParamsDto,
    'TurnControlParams',
    true,
    'TurnControlResponse',
    '3.10',
  ),
  request(
    'turn/followUp',
    'required',
    TurnControlParamsDto,
    'TurnControlParams',
    true,
    'TurnControlResponse',
    '3.11',
  ),
  request(
    'turn/interrupt',
    'required',
    TurnInterruptParamsDto,
    'TurnInterruptParams',
    true,
    'TurnInterruptResponse',
    '3.12',
  ),
  request(
    'approval/resolve',
    'required',
    ApprovalResolveParamsDto,
    'ApprovalResolveParams',
    false,
    'ApprovalResolveResponse',
    '3.13',
  ),
  request(
    'model/list',
    'optional',
    ModelListParamsDto,
    'ModelListParams',
    false,
    'ModelListResponse',
    '3.14',
  ),
  request('schema/export', 'empty', null, null, false, 'SchemaExportResponse', '3.15'),
  request(
    'thread/metadata/update',
    'required',
    ThreadMetadataUpdateParamsDto,
    'ThreadMetadataUpdateParams',
    true,
    'ThreadMetadataUpdateResponse',
    'history.md §3',
  ),
  request(
    'thread/fork',
    'required',
    ThreadForkParamsDto,
    'ThreadForkParams',
    true,
    'ThreadForkResponse',
    'history.md §2',
  ),
  request(
    'thread/compact',
    'required',
    ThreadCompactParamsDto,
    'ThreadCompactParams',
    true,
    'ThreadCompactResponse',
    'history.md §1',
  ),
  request(
    'mcpServer/list',
    'optional',
    McpServerListParamsDto,
    'McpServerListParams',
    false,
    'McpServerListResponse',
    'mcp.md §5',
  ),
] as const satisfies readonly ClientMethodSpec[];

export interface ServerNotificationSpec {
  readonly method: string;
  /** Schema / TypeScript name of the params type (inside `ServerNotification` `$defs`). */
  readonly paramsTypeName: string;
  readonly section: string;
}

/** Every server notification of the §4 table, in table order. */
export const SERVER_NOTIFICATIONS = [
  { method: 'thread/started', paramsTypeName: 'ThreadStartedParams', section: '4.1' },
  { method: 'thread/archived', paramsTypeName: 'ThreadArchivedParams', section: '4.2' },
  { method: 'thread/closed', paramsTypeName: 'ThreadClosedParams', section: '4.3' },
  { method: 'thread/status/changed', paramsTypeName: 'ThreadStatusChangedParams', section: '4.4' },
  { method: 'turn/started', paramsTypeName: 'TurnStartedParams', section: '4.5' },
  { method: 'turn/completed', paramsTypeName: 'TurnCompletedParams', section: '4.6' },
  { method: 'item/started', paramsTypeName: 'AppItem', section: '4.7' },
  { method: 'item/agentMessage/delta', paramsTypeName: 'AgentMessageDeltaParams', section: '4.8' },
  { method: 'item/toolCall/delta', paramsTypeName: 'ToolCallDeltaParams', section: '4.9' },
  { method: 'item/completed', paramsTypeName: 'AppItem', section: '4.10' },
  { method: 'approval/requested', paramsTypeName: 'ApprovalRequestParams', section: '4.11' },
  { method: 'approval/resolved', paramsTypeName: 'ApprovalResolvedParams', section: '4.12' },
  { method: 'error/warning', paramsTypeName: 'ErrorWarningParams', section: '4.13' },
  { method: 'thread/updated', paramsTypeName: 'ThreadUpdatedParams', section: 'history.md §3' },
] as const satisfies readonly ServerNotificationSpec[];

export interface ServerRequestSpec {
  readonly method: string;
  readonly paramsTypeName: string;
  /** The type of the client's `result`. */
  readonly resultTypeName: string;
  readonly section: string;
}

/** The only server request of v1 (§4.14). */
export const SERVER_REQUESTS = [
  {
    method: 'approval/request',
    paramsTypeName: 'ApprovalRequestParams',
    resultTypeName: 'ApprovalResponse',
    section: '4.14',
  },
] as const satisfies readonly ServerRequestSpec[];

/** Every client method name, the `initialized` notification included. */
export type ClientMethodName = (typeof CLIENT_METHODS)[number]['method'];
/** The client request method names (what the typed client's `request()` accepts). */
export type ClientRequestMethod = Extract<(typeof CLIENT_METHODS)[number], { kind: 'request' }>['method'];
export type ServerNotificationMethod = (typeof SERVER_NOTIFICATIONS)[number]['method'];

const ALL_CLIENT_METHODS: readonly ClientMethodSpec[] = CLIENT_METHODS;
const REQUESTS_BY_METHOD = new Map(
  ALL_CLIENT_METHODS.filter((spec) => spec.kind === 'request').map((spec) => [spec.method, spec]),
);
const NOTIFICATIONS_BY_METHOD = new Map(
  ALL_CLIENT_METHODS.filter((spec) => spec.kind === 'notification').map((spec) => [spec.method, spec]),
);

/** The request method of §3 with this exact (case-sensitive) name, if any. */
export function findClientRequest(method: string): ClientMethodSpec | undefined {
  return REQUESTS_BY_METHOD.get(method);
}

/** The client notification with this exact name, if any (only `initialized` in v1). */
export function findClientNotification(method: string): ClientMethodSpec | undefined {
  return NOTIFICATIONS_BY_METHOD.get(method);
}
