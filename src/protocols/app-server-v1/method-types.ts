/**
 * The TypeScript types every method's definition ([`method-index.ts`](./method-index.ts)) implies: its
 * params (the instance type of the DTO the registry binds to its params type name) and its result (the
 * message definition named by its result type name). Handlers (`@RpcMethod`) and the typed client both
 * read them, so a handler whose signature disagrees with its method's definition fails `tsc`.
 * Imported with `import type` only, so it is never loaded at run time (the client never loads
 * class-validator through it).
 */
import type { MessageTypes } from './messages';
import type { ClientMethodDefinition, ClientMethodName, ClientRequestMethod } from './method-index';
import type { PARAMS_DTOS } from './registry';
import type { RpcContext } from './rpc-context';

/** The params type of a params type name: the instance type of its registry DTO. */
export type ParamsTypes = { [K in keyof typeof PARAMS_DTOS]: InstanceType<(typeof PARAMS_DTOS)[K]> };

/** The params a request accepts (`{}` for `schema/export`, which has no params type). */
export type ParamsOf<M extends ClientRequestMethod> =
  ClientMethodDefinition<M>['paramsTypeName'] extends infer N
    ? N extends keyof ParamsTypes
      ? ParamsTypes[N]
      : Record<string, never>
    : never;

/** The result type of a request, by its definition's `resultTypeName`. */
export type ResultOf<M extends ClientRequestMethod> =
  MessageTypes[ClientMethodDefinition<M>['resultTypeName'] & keyof MessageTypes];

// Compile-time check: every result type name of the definitions has a message definition.
type UndefinedResultTypes = Exclude<
  ClientMethodDefinition<ClientRequestMethod>['resultTypeName'],
  keyof MessageTypes
>;
const everyResultTypeIsDefined: [UndefinedResultTypes] extends [never] ? true : UndefinedResultTypes = true;
void everyResultTypeIsDefined;

/**
 * `T` with every JSON-object member (an object type with a string index signature: `JsonObject`) widened to
 * `Record<string, unknown>`, the spelling of the core's types (`metadata`, `payload`, `mcpServers`); every
 * named member, literal and nesting stays checked.
 */
export type WithLooseJsonObjects<T> = T extends readonly (infer E)[]
  ? WithLooseJsonObjects<E>[]
  : T extends object
    ? string extends keyof T
      ? Record<string, unknown>
      : { [K in keyof T]: WithLooseJsonObjects<T[K]> }
    : T;

/** What a request's handler may return: its `ResultOf<M>` as the core's types spell JSON objects. */
export type HandlerResultOf<M extends ClientRequestMethod> = WithLooseJsonObjects<ResultOf<M>>;

/**
 * The signature `@RpcMethod(M)` accepts: a request's handler takes `ParamsOf<M>` (and the context) and
 * returns `HandlerResultOf<M>`, sync or async; a client notification's handler returns nothing.
 */
export type RpcHandlerOf<M extends ClientMethodName> = M extends ClientRequestMethod
  ? (params: ParamsOf<M>, context: RpcContext) => HandlerResultOf<M> | Promise<HandlerResultOf<M>>
  : (params: unknown, context: RpcContext) => void | Promise<void>;
