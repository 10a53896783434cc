/**
 * What an `@RpcMethod` handler receives as its second argument (see docs/architecture.md,
 * "Request handlers").
 */
import type { Connection } from '../../rpc/connection';
import type { RequestId } from '../../rpc/request-id';
import { NOOP_SPAN, type TelemetrySpan } from '../../runtime/telemetry/telemetry';

export type AfterResponseCallback = () => void | Promise<void>;

/** A handler as the dispatcher calls it: validated params, then the request's context. */
export type RpcHandler = (params: object, context: RpcContext) => unknown;

/** Finds the handler of a method; null when none is registered (yet). */
export type HandlerLookup = (method: string) => RpcHandler | null;

export class RpcContext {
  private readonly afterResponseCallbacks: AfterResponseCallback[] = [];

  constructor(
    /** The requester's connection. */
    readonly connection: Connection,
    readonly method: string,
    /** The request id; null for a client notification. */
    readonly requestId: RequestId | null,
    /** The request's SERVER span; a turn started by it goes under it (docs/spec/observability.md §2). */
    readonly span: TelemetrySpan = NOOP_SPAN,
  ) {}

  get connectionId(): string {
    return this.connection.id;
  }

  /**
   * Runs `callback` right after the successful response is enqueued and before the next request of
   * this connection starts (e.g. `thread/start` sends `thread/started` here). Callbacks run in
   * registration order and are awaited; they do not run when the handler fails.
   */
  afterResponse(callback: AfterResponseCallback): void {
    this.afterResponseCallbacks.push(callback);
  }

  /** The callbacks registered so far, for the dispatcher. */
  drainAfterResponse(): AfterResponseCallback[] {
    return this.afterResponseCallbacks.splice(0);
  }
}
