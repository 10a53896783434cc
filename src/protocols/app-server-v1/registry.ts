/**
 * The protocol registry (docs/spec/protocol.md §3 method index, §4, §11.1): the single source of truth for
 * method names, params modes, params DTOs, runtime needs and result / params type names. The request
 * router and the params validator read it; the schema generator and the typed client derive from it.
 * The declarative index lives in [`method-index.ts`](./method-index.ts); this file binds each
 * request to the class-validator DTO its params are validated against. No behaviour lives here.
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
import { METHOD_INDEX, type ClientRequestMethod, type MethodIndexEntry } from './method-index';

export {
  METHOD_INDEX,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
  type ClientMethodName,
  type ClientRequestMethod,
  type MethodIndexEntry,
  type ParamsMode,
  type ServerNotificationMethod,
  type ServerNotificationSpec,
  type ServerRequestSpec,
} from './method-index';

export type ParamsDtoClass = new () => object;

export interface ClientMethodSpec extends MethodIndexEntry {
  /** The class-validator DTO the params are validated against; null when there are no params to validate. */
  readonly paramsDto: ParamsDtoClass | null;
}

/** The params DTO of every request that has params (`schema/export` has none). */
export const PARAMS_DTOS = {
  initialize: InitializeParamsDto,
  'thread/start': ThreadStartParamsDto,
  'thread/resume': ThreadResumeParamsDto,
  'thread/read': ThreadReadParamsDto,
  'thread/list': ThreadListParamsDto,
  'thread/archive': ThreadArchiveParamsDto,
  'thread/unsubscribe': ThreadUnsubscribeParamsDto,
  'turn/start': TurnStartParamsDto,
  'turn/steer': TurnControlParamsDto,
  'turn/followUp': TurnControlParamsDto,
  'turn/interrupt': TurnInterruptParamsDto,
  'approval/resolve': ApprovalResolveParamsDto,
  'model/list': ModelListParamsDto,
  'thread/metadata/update': ThreadMetadataUpdateParamsDto,
  'thread/fork': ThreadForkParamsDto,
  'thread/compact': ThreadCompactParamsDto,
  'mcpServer/list': McpServerListParamsDto,
} as const satisfies Record<Exclude<ClientRequestMethod, 'schema/export'>, ParamsDtoClass>;

function paramsDtoOf(method: string): ParamsDtoClass | null {
  return (PARAMS_DTOS as Partial<Record<string, ParamsDtoClass>>)[method] ?? null;
}

/** Every client method of the §3 method index, in index order, with its DTO. */
export const CLIENT_METHODS: readonly ClientMethodSpec[] = METHOD_INDEX.map((entry) => ({
  ...entry,
  paramsDto: paramsDtoOf(entry.method),
}));

const REQUESTS_BY_METHOD = new Map(
  CLIENT_METHODS.filter((spec) => spec.kind === 'request').map((spec) => [spec.method, spec]),
);
const NOTIFICATIONS_BY_METHOD = new Map(
  CLIENT_METHODS.filter((spec) => spec.kind === 'notification').map((spec) => [spec.method, spec]),
);

/** The request method of §3 with this exact (case-sensitive) name, if any. */
export function findClientRequest(method: string): ClientMethodSpec | undefined {
  return REQUESTS_BY_METHOD.get(method);
}

/** The client notification with this exact name, if any (only `initialized` in v1). */
export function findClientNotification(method: string): ClientMethodSpec | undefined {
  return NOTIFICATIONS_BY_METHOD.get(method);
}
