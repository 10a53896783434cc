/**
 * Marks a handler method as the handler of one client method of the registry. The name is checked
 * against the method definitions at compile time, and so is the signature: the decorated method must
 * accept `ParamsOf<M>` and return `ResultOf<M>` (see `RpcHandlerOf`); `collectHandlers` builds the method → handler table from
 * the marked methods of the handler instances, whatever Nest application hosts them (HTTP,
 * microservice, standalone context) — handlers do not come from a transport strategy.
 */
import 'reflect-metadata';
import type { RpcHandlerOf } from '../method-types';
import type { ClientMethodName } from '../registry';
import type { RpcHandler } from '../rpc-context';

const RPC_METHOD = Symbol('vv-agent:rpc-method');

/** A handler receives the validated params and the request's context, in that order. */
export function RpcMethod<M extends ClientMethodName>(
  method: M,
): <H extends RpcHandlerOf<M>>(
  target: object,
  propertyKey: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => void {
  return (target, propertyKey) => {
    Reflect.defineMetadata(RPC_METHOD, method, target, propertyKey);
  };
}

/** Every `@RpcMethod` of `instances`, by method; a method marked twice is a wiring bug. */
export function collectHandlers(instances: readonly object[]): Map<string, RpcHandler> {
  const table = new Map<string, RpcHandler>();
  for (const instance of instances) {
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const property of Object.getOwnPropertyNames(prototype)) {
      const method = Reflect.getMetadata(RPC_METHOD, prototype, property) as string | undefined;
      if (method === undefined) continue;
      if (table.has(method)) throw new Error(`two handlers for ${method}`);
      const handler = (instance as Record<string, (params: object, context: unknown) => unknown>)[property];
      table.set(method, handler.bind(instance) as RpcHandler);
    }
  }
  return table;
}
