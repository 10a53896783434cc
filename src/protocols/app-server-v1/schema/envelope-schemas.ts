/**
 * The four envelope documents of docs/spec/protocol.md §11.2/§11.3, derived from the registry:
 * `ClientRequest` (every client method with its params), `ServerNotification`, `ServerRequest` and
 * the generic `JsonRpcMessage`.
 */
import {
  define,
  findMessageDefinition,
  fragment,
  integer,
  jsonValue,
  literal,
  nullable,
  object,
  optional,
  schemaDocument,
  string,
  type Definition,
  type JsonSchema,
  type SchemaDocument,
  type SchemaNode,
} from '../messages';
import { CLIENT_METHODS, SERVER_NOTIFICATIONS, SERVER_REQUESTS, type ClientMethodSpec } from '../registry';
import type { RequestId as RequestIdValue } from '../../../rpc/request-id';
import { paramsSchemas, type JsonSchemaObject } from './params-schema';

const JSONRPC_VERSION = '2.0';

/** `string` or integer (§1.3); the TypeScript files declare it as the `RequestId` helper. */
export const RequestId = define('RequestId', fragment<RequestIdValue>({ type: ['string', 'integer'] }));

/** `item/agentMessage/delta` → `ItemAgentMessageDelta`. */
export function pascalCaseMethod(method: string): string {
  return method
    .split('/')
    .map((segment) => segment.charAt(0).toUpperCase() + segment.slice(1))
    .join('');
}

function requireDefinition(name: string, context: string): Definition<unknown> {
  const definition = findMessageDefinition(name);
  if (definition === undefined) throw new Error(`schema: no definition named ${name} (${context})`);
  return definition;
}

function paramsReference(name: string): SchemaNode<unknown> {
  return fragment({ $ref: `#/$defs/${name}` });
}

/** The `params` member of a client envelope by params mode (§3.0). */
function clientParamsMember(spec: ClientMethodSpec): { required: boolean; schema: SchemaNode<unknown> } {
  switch (spec.paramsMode) {
    case 'required':
      return { required: true, schema: paramsReference(spec.paramsTypeName as string) };
    case 'optional':
      return { required: false, schema: nullable(paramsReference(spec.paramsTypeName as string)) };
    case 'empty':
      return { required: false, schema: nullable(object({})) };
    case 'none':
      return { required: false, schema: jsonValue() };
  }
}

function clientEnvelope(spec: ClientMethodSpec): Definition<unknown> {
  const params = clientParamsMember(spec);
  const paramsMember = params.required ? params.schema : optional(params.schema);
  const jsonrpc = optional(literal(JSONRPC_VERSION));
  const method = literal(spec.method);
  // `id` is required except for the `initialized` notification (§11.3).
  return spec.kind === 'request'
    ? define(
        `${pascalCaseMethod(spec.method)}Request`,
        object({ jsonrpc, id: RequestId, method, params: paramsMember }),
      )
    : define(
        `${pascalCaseMethod(spec.method)}Notification`,
        object({ jsonrpc, method, params: paramsMember }),
      );
}

/** Params types of the client methods, from their DTOs: root and nested types by name. */
function clientParamsDefs(): Record<string, JsonSchemaObject> {
  const defs: Record<string, JsonSchemaObject> = {};
  for (const spec of CLIENT_METHODS as readonly ClientMethodSpec[]) {
    if (spec.paramsDto === null || spec.paramsTypeName === null) continue;
    const { root, nested } = paramsSchemas(spec.paramsDto);
    defs[spec.paramsTypeName] = root;
    Object.assign(defs, nested);
  }
  return defs;
}

export function clientRequestDocument(): SchemaDocument {
  const variants = CLIENT_METHODS.map(clientEnvelope);
  return schemaDocument('ClientRequest', { oneOf: variants }, clientParamsDefs());
}

export function serverNotificationDocument(): SchemaDocument {
  const variants = SERVER_NOTIFICATIONS.map((spec) =>
    define(
      `${pascalCaseMethod(spec.method)}Notification`,
      object({
        jsonrpc: literal(JSONRPC_VERSION),
        method: literal(spec.method),
        params: requireDefinition(spec.paramsTypeName, spec.method),
      }),
    ),
  );
  return schemaDocument('ServerNotification', { oneOf: variants });
}

export function serverRequestDocument(): SchemaDocument {
  const variants = SERVER_REQUESTS.map((spec) =>
    define(
      `${pascalCaseMethod(spec.method)}ServerRequest`,
      object({
        jsonrpc: literal(JSONRPC_VERSION),
        /** equals `params.requestId` (§4.14) */
        id: string(),
        method: literal(spec.method),
        params: requireDefinition(spec.paramsTypeName, spec.method),
      }),
    ),
  );
  return schemaDocument('ServerRequest', { oneOf: variants });
}

const nonEmptyString = fragment<string>({ type: 'string', minLength: 1 });
const jsonrpcMember = optional(literal(JSONRPC_VERSION));

/** Any envelope of §1.3/§1.4, in either direction (`jsonrpc` may be absent on inbound lines). */
export function jsonRpcMessageDocument(): SchemaDocument {
  const errorObject = define(
    'JsonRpcErrorObject',
    object({ code: integer(), message: string(), data: optional(jsonValue()) }, { open: true }),
  );
  const variants: JsonSchema[] = [
    define(
      'JsonRpcRequest',
      object({
        jsonrpc: jsonrpcMember,
        id: RequestId,
        method: nonEmptyString,
        params: optional(jsonValue()),
      }),
    ),
    define(
      'JsonRpcNotification',
      object({ jsonrpc: jsonrpcMember, method: nonEmptyString, params: optional(jsonValue()) }),
    ),
    define('JsonRpcResponse', object({ jsonrpc: jsonrpcMember, id: RequestId, result: jsonValue() })),
    define('JsonRpcError', object({ jsonrpc: jsonrpcMember, id: nullable(RequestId), error: errorObject })),
  ];
  return schemaDocument('JsonRpcMessage', { oneOf: variants });
}
