/**
 * `AppServerClient` (docs/spec/protocol.md §13): a typed facade over the protocol for integration tests and
 * consumers, over a spawned child process or an in-process connection. Calls are correlated by id;
 * every message no pending call consumes goes to a FIFO backlog read with `nextMessage` / `waitFor`.
 */
import type { InProcessServerCore } from './in-process-server';
import { resultTypeNameOf } from '../protocols/app-server-v1/method-index';
import { AgentMessageTexts } from './agent-message-texts';
import { AppServerClientError, CLIENT_MESSAGES } from './app-server-client-error';
import { spawnTransport, type SpawnTransportOptions } from './child-process-transport';
import { inProcessTransport, type ClientTransport, type TransportListener } from './client-transport';
import { openWebSocket, type WebSocketConnectOptions } from './websocket-transport';
import type {
  ApprovalRequestParams,
  ApprovalResolveParams,
  ApprovalResponse,
  ClientCapabilities,
  ClientInfo,
  ClientMethod,
  InitializeResponse,
  McpServerListParams,
  McpServerListResponse,
  ModelListParams,
  NotificationMessageOf,
  ModelListResponse,
  ParamsOf,
  RequestId,
  ResultOf,
  SchemaExportResponse,
  ServerMessage,
  ServerNotificationMethod,
  ThreadArchiveResponse,
  ThreadCompactParams,
  ThreadCompactResponse,
  ThreadForkParams,
  ThreadForkResponse,
  ThreadMetadataUpdateParams,
  ThreadMetadataUpdateResponse,
  ThreadListParams,
  ThreadListResponse,
  ThreadReadParams,
  ThreadReadResponse,
  ThreadResumeParams,
  ThreadResumeResponse,
  ThreadStartParams,
  ThreadStartResponse,
  ThreadUnsubscribeResponse,
  TurnControlParams,
  TurnControlResponse,
  TurnInterruptParams,
  TurnInterruptResponse,
  TurnStartParams,
  TurnStartResponse,
} from './client-types';
import { MessageBacklog } from './message-backlog';
import { resultDecodingProblem } from './result-decoder';
import { causeMessage } from '../runtime/cause-message';

export interface SpawnClientOptions extends SpawnTransportOptions {
  requestTimeoutMs?: number;
}

export interface InProcessClientOptions {
  requestTimeoutMs?: number;
}

/** `AppServerClient.connect` options (docs/spec/websocket.md §7). */
export interface WebSocketClientOptions extends WebSocketConnectOptions {
  requestTimeoutMs?: number;
}

/** What `inProcess` accepts: the core, or what `startInProcessAppServer` returns. */
export type InProcessServerHandle = InProcessServerCore | { readonly core: InProcessServerCore };

export type ApprovalHandler = (params: ApprovalRequestParams) => ApprovalResponse | Promise<ApprovalResponse>;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MESSAGE_TIMEOUT_MS = 3_000;
export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilities = {
  experimentalApi: false,
  optOutNotificationMethods: [],
};

interface PendingCall {
  method: string;
  resolve(result: unknown): void;
  reject(error: AppServerClientError): void;
  timer: NodeJS.Timeout;
}

type ConnectionState =
  | { kind: 'open' }
  /** the child exited / the connection closed */
  | { kind: 'lost' }
  /** the child wrote a line that is not a JSON object */
  | { kind: 'broken'; message: string }
  | { kind: 'closed' };

type Envelope = Record<string, unknown>;

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class AppServerClient {
  /**
   * The text of every agentMessage so far, rebuilt from the chunks of `item/agentMessage/delta`
   * (§4.8 v1.1) and from the items `thread/read` / `thread/resume` return.
   */
  readonly agentMessages = new AgentMessageTexts();
  private readonly transport: ClientTransport;
  private readonly backlog = new MessageBacklog<ServerMessage>();
  private readonly pending = new Map<number, PendingCall>();
  private readonly requestTimeoutMs: number;
  private state: ConnectionState = { kind: 'open' };
  private nextId = 1;
  private approvalHandler: ApprovalHandler | null = null;

  private constructor(
    connect: (listener: TransportListener) => ClientTransport,
    requestTimeoutMs: number | undefined,
  ) {
    this.requestTimeoutMs = requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.transport = connect({ line: (text) => this.onLine(text), closed: () => this.onConnectionLost() });
  }

  /**
   * A client over any transport (like the MCP SDK's `client.connect(transport)`): `open` is called
   * once with the listener the transport feeds inbound lines to, and returns the transport. The
   * built-in ones are behind `spawn`, `inProcess` and `connect`.
   */
  static fromTransport(
    open: (listener: TransportListener) => ClientTransport,
    opts: { requestTimeoutMs?: number } = {},
  ): AppServerClient {
    return new AppServerClient(open, opts.requestTimeoutMs);
  }

  /** A client of a child process speaking JSONL on stdin/stdout; stderr lines go to `onStderr`. */
  static spawn(opts: SpawnClientOptions): AppServerClient {
    const { requestTimeoutMs, ...transportOptions } = opts;
    return new AppServerClient((listener) => spawnTransport(transportOptions, listener), requestTimeoutMs);
  }

  /**
   * A client of a WebSocket server (`--listen ws://HOST:PORT`, docs/spec/websocket.md §7), in Node and in
   * browsers. Resolves once the socket is open; rejects with `failed to connect to App Server at
   * <url>: <cause>` (a wrong token and a missing one look the same: the upgrade is refused).
   */
  static async connect(url: string, opts: WebSocketClientOptions = {}): Promise<AppServerClient> {
    const { requestTimeoutMs, ...socketOptions } = opts;
    let socket;
    try {
      socket = await openWebSocket(url, socketOptions);
    } catch (error) {
      throw new AppServerClientError(CLIENT_MESSAGES.connectFailure(url, (error as Error).message));
    }
    return new AppServerClient((listener) => socket.transport(listener), requestTimeoutMs);
  }

  /** A client with its own in-process connection to `server`. */
  static inProcess(server: InProcessServerHandle, opts: InProcessClientOptions = {}): AppServerClient {
    const core = 'core' in server ? server.core : server;
    return new AppServerClient((listener) => inProcessTransport(core, listener), opts.requestTimeoutMs);
  }

  /** Sends `initialize`, awaits its result, then sends the `initialized` notification. */
  async initialize(
    clientInfo: ClientInfo,
    capabilities: ClientCapabilities = DEFAULT_CLIENT_CAPABILITIES,
  ): Promise<InitializeResponse> {
    const result = await this.request('initialize', { clientInfo, capabilities });
    this.send({ jsonrpc: '2.0', method: 'initialized' });
    return result;
  }

  startThread(params?: ThreadStartParams): Promise<ThreadStartResponse> {
    return this.request('thread/start', params);
  }

  async resumeThread(params: ThreadResumeParams): Promise<ThreadResumeResponse> {
    const result = await this.request('thread/resume', params);
    this.agentMessages.applyItems(result.items);
    return result;
  }

  async readThread(params: ThreadReadParams): Promise<ThreadReadResponse> {
    const result = await this.request('thread/read', params);
    this.agentMessages.applyItems(result.items);
    return result;
  }

  listThreads(params?: ThreadListParams): Promise<ThreadListResponse> {
    return this.request('thread/list', params);
  }

  archiveThread(params: { threadId: string }): Promise<ThreadArchiveResponse> {
    return this.request('thread/archive', params);
  }

  /** docs/spec/history.md §2: copies finished turns up to `turnId`; the requester is subscribed to the fork. */
  forkThread(params: ThreadForkParams): Promise<ThreadForkResponse> {
    return this.request('thread/fork', params);
  }

  /**
   * docs/spec/history.md §1: starts a compaction turn (`turn/started`, a `contextCompaction` item,
   * `turn/completed`); the requester owns it.
   */
  compactThread(params: ThreadCompactParams): Promise<ThreadCompactResponse> {
    return this.request('thread/compact', params);
  }

  /** docs/spec/history.md §3: a shallow patch, `null` deletes a key. */
  updateThreadMetadata(params: ThreadMetadataUpdateParams): Promise<ThreadMetadataUpdateResponse> {
    return this.request('thread/metadata/update', params);
  }

  unsubscribeThread(params: { threadId: string }): Promise<ThreadUnsubscribeResponse> {
    return this.request('thread/unsubscribe', params);
  }

  startTurn(params: TurnStartParams): Promise<TurnStartResponse> {
    return this.request('turn/start', params);
  }

  steerTurn(params: TurnControlParams): Promise<TurnControlResponse> {
    return this.request('turn/steer', params);
  }

  followUpTurn(params: TurnControlParams): Promise<TurnControlResponse> {
    return this.request('turn/followUp', params);
  }

  /**
   * `turn/interrupt`; with `clearFollowUps: true` (docs/spec/protocol.md §3.12 v1.2) the thread's queued
   * follow-ups are dropped too and the result carries `clearedFollowUps`, the number dropped.
   */
  interruptTurn(params: TurnInterruptParams): Promise<TurnInterruptResponse> {
    return this.request('turn/interrupt', params);
  }

  /** `approval/resolve`; resolves with `{}`. */
  resolveApproval(params: ApprovalResolveParams): Promise<Record<string, never>> {
    return this.request('approval/resolve', params);
  }

  listModels(params?: ModelListParams): Promise<ModelListResponse> {
    return this.request('model/list', params);
  }

  /** `mcpServer/list` (docs/spec/mcp.md §5): process-level servers, plus the thread's with `threadId`. */
  listMcpServers(params?: McpServerListParams): Promise<McpServerListResponse> {
    return this.request('mcpServer/list', params);
  }

  exportSchema(): Promise<SchemaExportResponse> {
    return this.request('schema/export', {});
  }

  /**
   * Sends a request (params with `undefined` members omitted; no `params` when undefined) and resolves
   * with its result, validated against the method's result schema.
   */
  request<M extends ClientMethod>(
    method: M,
    params?: ParamsOf<M>,
    opts: { timeoutMs?: number } = {},
  ): Promise<ResultOf<M>> {
    const unavailable = this.unavailableError();
    if (unavailable !== null) return Promise.reject(unavailable);
    const id = this.nextId++;
    const envelope: Envelope = { jsonrpc: '2.0', id, method };
    if (params !== undefined) envelope.params = params;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppServerClientError(CLIENT_MESSAGES.requestTimeout(method)));
      }, opts.timeoutMs ?? this.requestTimeoutMs);
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject, timer });
      this.send(envelope);
    });
  }

  /** Answers an `approval/request` (JSON-RPC response, id = request id). */
  answerApproval(requestId: string, response: ApprovalResponse): void {
    this.respond(requestId, response);
  }

  respond(id: RequestId, result: unknown): void {
    this.sendAnswer({ jsonrpc: '2.0', id, result });
  }

  respondError(id: RequestId, error: { code: number; message: string; data?: unknown }): void {
    this.sendAnswer({ jsonrpc: '2.0', id, error });
  }

  /**
   * With a handler, every `approval/request` is answered with its result (a throwing handler answers
   * with error `-32603` and its message) and never reaches the backlog; `null` restores the backlog.
   */
  onApprovalRequest(handler: ApprovalHandler | null): void {
    this.approvalHandler = handler;
  }

  /** The backlog head, else the next message within `timeoutMs` (default 3 000); null on timeout or loss. */
  async nextMessage(opts: { timeoutMs?: number } = {}): Promise<ServerMessage | null> {
    if (this.state.kind === 'closed') return null;
    const outcome = await this.backlog.take(() => true, opts.timeoutMs ?? DEFAULT_MESSAGE_TIMEOUT_MS);
    return outcome.kind === 'message' ? outcome.message : null;
  }

  /** Like `nextMessage`, but throws instead of returning null. */
  tryNextMessage(opts: { timeoutMs?: number } = {}): Promise<ServerMessage> {
    return this.waitFor(() => true, opts);
  }

  /**
   * Removes and returns the first backlog message matching `predicate`, else waits for one. A type
   * guard narrows the result: `waitFor((m): m is TurnCompletedMessage => m.method === 'turn/completed')`,
   * or pass a method name (`waitFor('turn/completed')`) to get that notification's type.
   */
  waitFor<M extends ServerNotificationMethod>(
    method: M,
    opts?: { timeoutMs?: number },
  ): Promise<NotificationMessageOf<M>>;
  waitFor<T extends ServerMessage>(
    predicate: (message: ServerMessage) => message is T,
    opts?: { timeoutMs?: number },
  ): Promise<T>;
  waitFor(
    predicate: (message: ServerMessage) => boolean,
    opts?: { timeoutMs?: number },
  ): Promise<ServerMessage>;
  async waitFor(
    match: ServerNotificationMethod | ((message: ServerMessage) => boolean),
    opts: { timeoutMs?: number } = {},
  ): Promise<ServerMessage> {
    if (this.state.kind === 'closed') throw new AppServerClientError(CLIENT_MESSAGES.closed);
    const predicate =
      typeof match === 'string' ? (message: ServerMessage) => message.method === match : match;
    const outcome = await this.backlog.take(predicate, opts.timeoutMs ?? DEFAULT_MESSAGE_TIMEOUT_MS);
    if (outcome.kind === 'message') return outcome.message;
    if (outcome.kind === 'timeout') throw new AppServerClientError(CLIENT_MESSAGES.messageTimeout);
    throw this.unavailableError() ?? new AppServerClientError(CLIENT_MESSAGES.connectionClosed);
  }

  /**
   * First call: true — pending calls reject with `App Server client is closed`, the backlog is
   * dropped, and the connection ends (child: stdin closed, up to 5 s to exit, then SIGKILL;
   * in-process: the connection is disconnected). Later calls: false.
   */
  async close(): Promise<boolean> {
    if (this.state.kind === 'closed') return false;
    this.state = { kind: 'closed' };
    this.rejectPending(CLIENT_MESSAGES.closed);
    this.backlog.discard();
    await this.transport.close();
    return true;
  }

  private unavailableError(): AppServerClientError | null {
    switch (this.state.kind) {
      case 'open':
        return null;
      case 'lost':
        return new AppServerClientError(CLIENT_MESSAGES.connectionClosed);
      case 'broken':
        return new AppServerClientError(this.state.message);
      case 'closed':
        return new AppServerClientError(CLIENT_MESSAGES.closed);
    }
  }

  private send(envelope: Envelope): void {
    this.transport.send(JSON.stringify(envelope));
  }

  private sendAnswer(envelope: Envelope): void {
    if (this.state.kind === 'closed') throw new AppServerClientError(CLIENT_MESSAGES.closed);
    // After a connection loss there is nobody to answer; the server already gave up the request.
    if (this.state.kind === 'open') this.send(envelope);
  }

  private onLine(text: string): void {
    if (this.state.kind !== 'open') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    if (!isEnvelope(message)) {
      this.breakConnection(CLIENT_MESSAGES.invalidOutput(text));
      return;
    }
    if (this.settlePending(message)) return;
    this.agentMessages.apply(message as unknown as ServerMessage);
    if (message.method === 'approval/request' && 'id' in message && this.approvalHandler !== null) {
      this.answerWithHandler(this.approvalHandler, message);
      return;
    }
    this.backlog.push(message as unknown as ServerMessage);
  }

  /** A response or error for a pending call settles it; anything else is not consumed. */
  private settlePending(message: Envelope): boolean {
    if ('method' in message || typeof message.id !== 'number') return false;
    if (!('result' in message) && !('error' in message)) return false;
    const call = this.pending.get(message.id);
    if (call === undefined) return false;
    this.pending.delete(message.id);
    clearTimeout(call.timer);
    if ('error' in message) {
      const error = isEnvelope(message.error) ? message.error : {};
      call.reject(
        new AppServerClientError(String(error.message), {
          code: typeof error.code === 'number' ? error.code : undefined,
          ...('data' in error ? { data: error.data } : {}),
        }),
      );
      return true;
    }
    const resultTypeName = resultTypeNameOf(call.method);
    const problem = resultTypeName === null ? null : resultDecodingProblem(resultTypeName, message.result);
    if (problem !== null)
      call.reject(new AppServerClientError(CLIENT_MESSAGES.decodeFailure(call.method, problem)));
    else call.resolve(message.result);
    return true;
  }

  private answerWithHandler(handler: ApprovalHandler, message: Envelope): void {
    const id = message.id as RequestId;
    Promise.resolve()
      .then(() => handler(message.params as ApprovalRequestParams))
      .then(
        (response) => this.respond(id, response),
        (error: unknown) => this.respondError(id, { code: -32603, message: causeMessage(error) }),
      )
      .catch(() => undefined); // the client was closed meanwhile: nothing to answer
  }

  private breakConnection(message: string): void {
    this.state = { kind: 'broken', message };
    this.rejectPending(message);
    this.backlog.end();
  }

  private onConnectionLost(): void {
    if (this.state.kind !== 'open') return;
    this.state = { kind: 'lost' };
    this.rejectPending(CLIENT_MESSAGES.connectionClosed);
    this.backlog.end();
  }

  private rejectPending(message: string): void {
    for (const call of this.pending.values()) {
      clearTimeout(call.timer);
      call.reject(new AppServerClientError(message));
    }
    this.pending.clear();
  }
}
