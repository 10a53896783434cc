/**
 * The protocol registry (docs/spec/protocol.md §3 method index, §4, §11.1): the single source of truth for
 * method names, params modes, params DTOs, runtime needs and result / params type names. The request
 * router and the params validator read it; the schema generator and the typed client derive from it.
 * The declarative definitions live in [`method-index.ts`](./method-index.ts); this file binds each params
 * type name of those definitions to the class-validator DTO its params are validated against — keyed by
 * type name, so no method name is written here. No behaviour lives here.
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
import { METHOD_INDEX, type MethodIndexEntry, type ParamsTypeName } from './method-index';

export {
  INITIALIZE,
  METHOD_INDEX,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
  type ClientMethodDefinition,
  type ClientMethodName,
  type ClientRequestMethod,
  type MethodIndexEntry,
  type ParamsMode,
  type ParamsTypeName,
  type ServerNotificationMethod,
  type ServerNotificationSpec,
  type ServerRequestSpec,
} from './method-index';

export type ParamsDtoClass = new () => object;

export interface ClientMethodSpec extends MethodIndexEntry {
  /** The class-validator DTO the params are validated against; null when there are no params to validate. */
  readonly paramsDto: ParamsDtoClass | null;
}

/**
 * The params DTO of every params type of the definitions (`schema/export` has none; `turn/steer` and
 * `turn/followUp` share `TurnControlParams`). A definition naming a type missing here, or a key no
 * definition names (`satisfies`' excess-property check), fails `tsc`.
 */
export const PARAMS_DTOS = {
  InitializeParams: InitializeParamsDto,
  ThreadStartParams: ThreadStartParamsDto,
  ThreadResumeParams: ThreadResumeParamsDto,
  ThreadReadParams: ThreadReadParamsDto,
  ThreadListParams: ThreadListParamsDto,
  ThreadArchiveParams: ThreadArchiveParamsDto,
  ThreadUnsubscribeParams: ThreadUnsubscribeParamsDto,
  TurnStartParams: TurnStartParamsDto,
  TurnControlParams: TurnControlParamsDto,
  TurnInterruptParams: TurnInterruptParamsDto,
  ApprovalResolveParams: ApprovalResolveParamsDto,
  ModelListParams: ModelListParamsDto,
  ThreadMetadataUpdateParams: ThreadMetadataUpdateParamsDto,
  ThreadForkParams: ThreadForkParamsDto,
  ThreadCompactParams: ThreadCompactParamsDto,
  McpServerListParams: McpServerListParamsDto,
} as const satisfies { readonly [K in ParamsTypeName]: ParamsDtoClass };

function paramsDtoOf(paramsTypeName: string | null): ParamsDtoClass | null {
  if (paramsTypeName === null) return null;
  return (PARAMS_DTOS as Partial<Record<string, ParamsDtoClass>>)[paramsTypeName] ?? null;
}

/** Every client method of the §3 method index, in index order, with its DTO. */
export const CLIENT_METHODS: readonly ClientMethodSpec[] = METHOD_INDEX.map((entry) => ({
  ...entry,
  paramsDto: paramsDtoOf(entry.paramsTypeName),
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
