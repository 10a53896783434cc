/**
 * The protocol's method definitions (docs/spec/protocol.md §3, §4, §11.1): the one place a method's name is
 * written. Each entry holds the name, params mode, runtime need, params / result type names and section;
 * everything else is derived from it — the registry's router table and params DTOs
 * ([`registry.ts`](./registry.ts), which binds DTOs by params TYPE name, never by method name), the
 * envelope schemas, the handler signatures (`ParamsOf` / `ResultOf` in [`method-types.ts`](./method-types.ts),
 * checked by `@RpcMethod`) and the typed client's signatures. This is the light half: the typed client
 * reads it at run time, so it imports nothing (a client bundle never loads class-validator or Nest).
 * No behaviour lives here. Adding a method: docs/architecture.md, "Adding a method".
 */

/**
 * `required`: absent/null → `Missing params`. `optional`: absent/null means all defaults.
 * `empty`: absent, null or exactly `{}` (schema/export). `none`: a notification whose params are ignored.
 */
export type ParamsMode = 'required' | 'optional' | 'empty' | 'none';

/**
 * Which of a request's types §11.2 (and the history / MCP specs) publish as schema files of their own
 * (`schema/app-server/<Name>.json` / `.ts`); the others appear only inside `ClientRequest` / `$defs`.
 */
export type SchemaFiles = 'result' | 'params' | 'params and result' | 'none';

export interface MethodIndexEntry {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly paramsMode: ParamsMode;
  /** Schema / TypeScript name of the params type (inside `ClientRequest` `$defs`). */
  readonly paramsTypeName: string | null;
  /** §3.0 check (2): fails with `App Server runtime is not configured` when the server has no runner. */
  readonly needsRuntime: boolean;
  /** Schema / TypeScript name of the result type; null for notifications. */
  readonly resultTypeName: string | null;
  /** Section of protocol.md. */
  readonly section: string;
  /** The types published as schema files of their own; the schema generator's file list reads it. */
  readonly schemaFiles: SchemaFiles;
}

/** Keeps the literal method and type names in the entry's type: the typed client derives its signatures from them. */
function request<M extends string, P extends string | null, R extends string>(
  method: M,
  paramsMode: Exclude<ParamsMode, 'none'>,
  paramsTypeName: P,
  needsRuntime: boolean,
  resultTypeName: R,
  section: string,
  schemaFiles: SchemaFiles = 'result',
): MethodIndexEntry & {
  readonly method: M;
  readonly kind: 'request';
  readonly paramsTypeName: P;
  readonly resultTypeName: R;
} {
  return {
    method,
    kind: 'request',
    paramsMode,
    paramsTypeName,
    needsRuntime,
    resultTypeName,
    section,
    schemaFiles,
  };
}

/** `initialize` (§3.1): the dispatcher checks the §1.6 handshake order against this entry. */
export const INITIALIZE = request(
  'initialize',
  'required',
  'InitializeParams',
  false,
  'InitializeResponse',
  '3.1',
  'params and result',
);

/** Every client method of the §3 method index, in index order. */
export const METHOD_INDEX = [
  INITIALIZE,
  {
    method: 'initialized' as const,
    kind: 'notification' as const,
    paramsMode: 'none',
    paramsTypeName: null,
    needsRuntime: false,
    resultTypeName: null,
    section: '3.2',
    schemaFiles: 'none',
  },
  request('thread/start', 'optional', 'ThreadStartParams', true, 'ThreadStartResponse', '3.3'),
  request('thread/resume', 'required', 'ThreadResumeParams', true, 'ThreadResumeResponse', '3.4'),
  request('thread/read', 'required', 'ThreadReadParams', true, 'ThreadReadResponse', '3.5'),
  request('thread/list', 'optional', 'ThreadListParams', true, 'ThreadListResponse', '3.6'),
  request('thread/archive', 'required', 'ThreadArchiveParams', true, 'ThreadArchiveResponse', '3.7'),
  request(
    'thread/unsubscribe',
    'required',
    'ThreadUnsubscribeParams',
    true,
    'ThreadUnsubscribeResponse',
    '3.8',
  ),
  request('turn/start', 'required', 'TurnStartParams', true, 'TurnStartResponse', '3.9'),
  request('turn/steer', 'required', 'TurnControlParams', true, 'TurnControlResponse', '3.10'),
  request('turn/followUp', 'required', 'TurnControlParams', true, 'TurnControlResponse', '3.11'),
  request('turn/interrupt', 'required', 'TurnInterruptParams', true, 'TurnInterruptResponse', '3.12'),
  request(
    'approval/resolve',
    'required',
    'ApprovalResolveParams',
    false,
    'ApprovalResolveResponse',
    '3.13',
    'params',
  ),
  request('model/list', 'optional', 'ModelListParams', false, 'ModelListResponse', '3.14'),
  request('schema/export', 'empty', null, false, 'SchemaExportResponse', '3.15'),
  request(
    'thread/metadata/update',
    'required',
    'ThreadMetadataUpdateParams',
    true,
    'ThreadMetadataUpdateResponse',
    'docs/spec/history.md §3',
  ),
  request(
    'thread/fork',
    'required',
    'ThreadForkParams',
    true,
    'ThreadForkResponse',
    'docs/spec/history.md §2',
  ),
  request(
    'thread/compact',
    'required',
    'ThreadCompactParams',
    true,
    'ThreadCompactResponse',
    'docs/spec/history.md §1',
  ),
  request(
    'mcpServer/list',
    'optional',
    'McpServerListParams',
    false,
    'McpServerListResponse',
    'docs/spec/mcp.md §5',
  ),
] as const satisfies readonly MethodIndexEntry[];

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
  { method: 'thread/updated', paramsTypeName: 'ThreadUpdatedParams', section: 'docs/spec/history.md §3' },
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
export type ClientMethodName = (typeof METHOD_INDEX)[number]['method'];
/** The client request method names (what the typed client's `request()` accepts). */
export type ClientRequestMethod = Extract<(typeof METHOD_INDEX)[number], { kind: 'request' }>['method'];
export type ServerNotificationMethod = (typeof SERVER_NOTIFICATIONS)[number]['method'];
/** The definition of one client method (request or notification). */
export type ClientMethodDefinition<M extends ClientMethodName> = Extract<
  (typeof METHOD_INDEX)[number],
  { readonly method: M }
>;
/** The params type names of the requests that have params: the keys of the registry's DTO binding. */
export type ParamsTypeName = NonNullable<(typeof METHOD_INDEX)[number]['paramsTypeName']>;

const RESULT_TYPE_NAMES: ReadonlyMap<string, string> = new Map(
  (METHOD_INDEX as readonly MethodIndexEntry[]).flatMap((entry) =>
    entry.kind === 'request' && entry.resultTypeName !== null ? [[entry.method, entry.resultTypeName]] : [],
  ),
);

/** The result type name of the request method with this exact name, if any. */
export function resultTypeNameOf(method: string): string | null {
  return RESULT_TYPE_NAMES.get(method) ?? null;
}
