/**
 * The request pipeline of docs/spec/protocol.md §1.5–§1.8 for classified envelopes:
 *
 * * requests wait in a per-connection FIFO and run one at a time, in arrival order; a handler runs
 *   to completion (response enqueued, after-response callbacks done) before the next one starts;
 *   a request arriving while `maxQueuedRequests` wait is answered `-32001` at once;
 * * errors for bad lines take their place in the same FIFO, so every answer follows line order
 *   (the `-32001` answer is the one exception: it is not queued);
 * * per request, in order: init gate (`-32010`, unknown methods included), `-32011` for a second
 *   `initialize` (before params, §3.1), `-32601` for methods without a registered handler, params
 *   validation (`-32602`), runtime check (`-32603`), then the handler;
 * * client notifications and answers to server requests are handled on arrival, never queued.
 */
import type { LoggerService } from '@nestjs/common';
import type { Connection } from '../../rpc/connection';
import type { InboundEnvelope } from '../../rpc/envelope';
import { RpcErrors, toRpcError, type RpcError } from './errors';
import { causeMessage } from '../../runtime/cause-message';
import { errorMessage, responseMessage } from '../../rpc/outbound-messages';
import { validateParams } from './params-validator';
import { findClientNotification, findClientRequest } from './registry';
import { RpcContext, type HandlerLookup } from './rpc-context';
import type { RequestId } from '../../rpc/request-id';
import { traceCarrierOf } from '../../rpc/trace-carrier';
import { telemetry } from '../../runtime/telemetry/current-telemetry';

export type DispatchableEnvelope = Exclude<InboundEnvelope, { kind: 'invalid' }>;

export interface DispatcherOptions {
  maxQueuedRequests: number;
  /** False when the server has no runner: methods that need the runtime fail with -32603. */
  runtimeConfigured: boolean;
}

interface QueuedRequest {
  kind: 'request';
  id: RequestId;
  method: string;
  params: unknown;
}

/** A protocol error for a bad line, answered in line order (not counted as a waiting request). */
interface QueuedProtocolError {
  kind: 'protocol-error';
  id: RequestId | null;
  error: RpcError;
}

type QueuedWork = QueuedRequest | QueuedProtocolError;

/** Per-connection FIFO. */
interface RequestLane {
  readonly waiting: QueuedWork[];
  /** Requests among `waiting` (what maxQueuedRequests limits). */
  waitingRequests: number;
  running: boolean;
  idleWaiters: Array<() => void>;
}

export class Dispatcher {
  private lookupHandler: HandlerLookup = () => null;
  private readonly lanes = new Map<Connection, RequestLane>();

  constructor(
    private readonly options: DispatcherOptions,
    private readonly logger: LoggerService,
  ) {}

  /** Installs where handlers come from (the protocol's `@RpcMethod` table). */
  setHandlerLookup(lookup: HandlerLookup): void {
    this.lookupHandler = lookup;
  }

  dispatch(connection: Connection, envelope: DispatchableEnvelope): void {
    switch (envelope.kind) {
      case 'request':
        this.enqueueRequest(connection, {
          kind: 'request',
          id: envelope.id,
          method: envelope.method,
          params: envelope.params,
        });
        return;
      case 'notification':
        void this.handleNotification(connection, envelope.method, envelope.params);
        return;
      case 'response':
        // Server request ids are strings: any other id matches nothing and is ignored (§1.7).
        if (typeof envelope.id === 'string') {
          connection.settleServerRequest(envelope.id, { kind: 'result', result: envelope.result });
        }
        return;
      case 'error-response':
        if (typeof envelope.id === 'string') {
          connection.settleServerRequest(envelope.id, { kind: 'error', error: envelope.error });
        }
        return;
    }
  }

  /**
   * Answers a bad line (§1.2 steps 1, 3, 4) in line order: after the answers to the requests that
   * arrived before it, like a response. Never rejected as overload.
   */
  answerProtocolError(connection: Connection, id: RequestId | null, error: RpcError): void {
    const lane = this.laneOf(connection);
    lane.waiting.push({ kind: 'protocol-error', id, error });
    if (!lane.running) void this.drainLane(connection, lane);
  }

  /** Number of requests of the connection waiting to start (the running one excluded). */
  queuedRequests(connection: Connection): number {
    return this.lanes.get(connection)?.waitingRequests ?? 0;
  }

  /** Resolves when the connection has no running and no waiting request. */
  whenIdle(connection: Connection): Promise<void> {
    const lane = this.lanes.get(connection);
    if (lane === undefined || (!lane.running && lane.waiting.length === 0)) return Promise.resolve();
    return new Promise<void>((resolve) => lane.idleWaiters.push(resolve));
  }

  /** Drops the requests still waiting, without a response (§1.9 on a signal, or on disconnect). */
  discardWaiting(connection: Connection): void {
    const lane = this.lanes.get(connection);
    if (lane === undefined) return;
    lane.waiting.length = 0;
    lane.waitingRequests = 0;
    if (!lane.running) this.settleIdle(connection, lane);
  }

  private laneOf(connection: Connection): RequestLane {
    let lane = this.lanes.get(connection);
    if (lane === undefined) {
      lane = { waiting: [], waitingRequests: 0, running: false, idleWaiters: [] };
      this.lanes.set(connection, lane);
    }
    return lane;
  }

  private enqueueRequest(connection: Connection, request: QueuedRequest): void {
    const lane = this.laneOf(connection);
    if (lane.waitingRequests >= this.options.maxQueuedRequests) {
      // Not queued: answered at once, ahead of the waiting requests (§1.8).
      void this.answerError(connection, request.id, RpcErrors.serverOverloaded());
      return;
    }
    lane.waiting.push(request);
    lane.waitingRequests += 1;
    if (!lane.running) void this.drainLane(connection, lane);
  }

  private async drainLane(connection: Connection, lane: RequestLane): Promise<void> {
    lane.running = true;
    try {
      for (let next = lane.waiting.shift(); next !== undefined; next = lane.waiting.shift()) {
        if (next.kind === 'request') {
          lane.waitingRequests -= 1;
          await this.process(connection, next);
        } else {
          await this.answerError(connection, next.id, next.error);
        }
      }
    } finally {
      lane.running = false;
      this.settleIdle(connection, lane);
    }
  }

  private settleIdle(connection: Connection, lane: RequestLane): void {
    if (lane.running || lane.waiting.length > 0) return;
    this.lanes.delete(connection);
    for (const resolve of lane.idleWaiters.splice(0)) resolve();
  }

  /**
   * One request, start to finish: response (or error), then its after-response callbacks; its span
   * and duration cover both (docs/spec/observability.md §2, §3).
   */
  private async process(connection: Connection, request: QueuedRequest): Promise<void> {
    if (connection.isClosed) return;
    const started = performance.now();
    const span = telemetry().startSpan(
      request.method,
      'server',
      { 'rpc.system': 'jsonrpc', 'rpc.method': request.method },
      traceCarrierOf(request.params),
    );
    const context = new RpcContext(connection, request.method, request.id, span);
    // Current for the whole request, so that a request forwarded to another instance carries it.
    const errorCode = await telemetry().withSpan(span, () => this.respond(connection, request, context));
    if (errorCode !== undefined) {
      span.setAttributes({ 'rpc.jsonrpc.error_code': errorCode });
      span.fail(String(errorCode));
    }
    span.end();
    telemetry().record('vv_agent.rpc.server.duration', (performance.now() - started) / 1000, {
      'rpc.method': request.method,
      'rpc.jsonrpc.error_code': errorCode,
    });
  }

  /** The response (or error) and the after-response callbacks; the error code answered, if any. */
  private async respond(
    connection: Connection,
    request: QueuedRequest,
    context: RpcContext,
  ): Promise<number | undefined> {
    let result: unknown;
    try {
      result = await this.execute(connection, request, context);
    } catch (thrown) {
      const error = toRpcError(thrown);
      await this.answerError(connection, request.id, error);
      return error.code;
    }
    try {
      await connection.send(responseMessage(request.id, result === undefined ? null : result));
    } catch (unserializable) {
      const error = RpcErrors.internal(unserializable);
      await this.answerError(connection, request.id, error);
      return error.code;
    }
    for (const callback of context.drainAfterResponse()) {
      try {
        await callback();
      } catch (error) {
        this.logger.error(`after-response step of ${request.method} failed: ${causeMessage(error)}`);
      }
    }
    return undefined;
  }

  private async execute(
    connection: Connection,
    request: QueuedRequest,
    context: RpcContext,
  ): Promise<unknown> {
    const { method } = request;
    const initialize = method === 'initialize';
    if (!initialize && !connection.state.initialized) throw RpcErrors.notInitialized();
    if (initialize && connection.state.initialized) throw RpcErrors.alreadyInitialized();
    const spec = findClientRequest(method);
    const handler = spec === undefined ? null : this.lookupHandler(method);
    if (spec === undefined || handler === null) throw RpcErrors.methodNotFound(method);
    const params = validateParams(spec, request.params);
    if (spec.needsRuntime && !this.options.runtimeConfigured) throw RpcErrors.runtimeNotConfigured();
    return await handler(params, context);
  }

  /** Only `initialized` has an effect, and only on an initialized connection (§1.6). */
  private async handleNotification(connection: Connection, method: string, params: unknown): Promise<void> {
    if (!connection.state.initialized || findClientNotification(method) === undefined) return;
    const handler = this.lookupHandler(method);
    if (handler === null) return;
    const context = new RpcContext(connection, method, null);
    try {
      await handler(params ?? {}, context);
      for (const callback of context.drainAfterResponse()) await callback();
    } catch (error) {
      this.logger.error(`notification ${method} failed: ${causeMessage(error)}`);
    }
  }

  private async answerError(connection: Connection, id: RequestId | null, error: RpcError): Promise<void> {
    await connection.send(errorMessage(id, error));
  }
}
