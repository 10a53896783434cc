/**
 * The ACP agent (docs/spec/acp.md §2) over the core: the SDK's `AgentApp` validates every message against
 * the ACP schema and routes it; each handler maps one ACP method to core calls — a session is a
 * thread, a prompt is a turn. One `AcpAgent` serves one client connection.
 */
import {
  agent,
  type AgentApp,
  type AgentConnection,
  type InitializeResponse,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadSessionRequest,
  type NewSessionRequest,
  type PromptRequest,
  type PromptResponse,
  type SessionInfo,
  type Stream,
} from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { ThreadsService } from '../../core/threads/threads.service';
import type { TurnsService } from '../../core/turns/turns.service';
import type { AppItem, AppThread } from '../../core/model/types';
import { DEFAULT_AGENT_KEY } from '../../core/threads/threads.service';
import { AcpErrors, toAcpError } from './acp-errors';
import { telemetry } from '../../runtime/telemetry/current-telemetry';
import type { AcpConnections } from './delivery/acp-connections';
import type { AcpSessionConnection } from './delivery/acp-session-connection';
import { threadMcpServers } from './mcp-servers';
import { promptInput } from './prompt-input';
import { promptOutcome } from './stop-reason';
import { causeMessage } from '../../runtime/cause-message';
import type { TelemetrySpan } from '../../runtime/telemetry/telemetry';
import { tracedAcpRequest } from './acp-request-span';

export const ACP_PROTOCOL_VERSION = 1;

export interface AcpAgentCore {
  threads: ThreadsService;
  turns: TurnsService;
  connections: AcpConnections;
  /** `agentInfo.version`. */
  version: string;
}

/** docs/spec/acp.md §2 `initialize`: the same answer whatever version the client speaks (the client decides). */
export function initializeResponse(version: string): InitializeResponse {
  return {
    protocolVersion: ACP_PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {} },
    },
    authMethods: [],
    agentInfo: { name: 'vv-agent', title: 'vv-agent', version },
  };
}

/** docs/spec/acp.md §2 `session/list`: one thread as a session (threads without a cwd are not sessions). */
export function sessionInfo(thread: AppThread): SessionInfo | null {
  if (thread.cwd === null) return null;
  const title = thread.metadata.title;
  return {
    sessionId: thread.threadId,
    cwd: thread.cwd,
    ...(typeof title === 'string' ? { title } : {}),
    updatedAt: new Date(thread.updatedAt).toISOString(),
  };
}

export class AcpAgent {
  private connection: AcpSessionConnection | null = null;

  private readonly logger = new Logger('AcpAgent');
  /** Sessions with a `session/prompt` not answered yet: whether its turn runs, and whether a cancel came. */
  private readonly pendingPrompts = new Map<string, { running: boolean; cancelled: boolean }>();

  constructor(private readonly core: AcpAgentCore) {}

  /** Serves the client on `stream` until it closes. */
  serve(stream: Stream): AgentConnection {
    const served = this.app().connect(stream);
    // docs/spec/observability.md §3: an editor's connection counts like any other door's.
    const transport = { 'vv_agent.transport': telemetry().transport };
    telemetry().add('vv_agent.connections.active', 1, transport);
    void served.closed.finally(() => {
      telemetry().add('vv_agent.connections.active', -1, transport);
      if (this.connection !== null) this.core.connections.close(this.connection);
    });
    return served;
  }

  private app(): AgentApp {
    return agent({ name: 'vv-agent' })
      .onConnect((served) => {
        this.connection = this.core.connections.open({
          sessionUpdate: (sessionId, update) => served.client.notify('session/update', { sessionId, update }),
          requestPermission: (params, cancellation) =>
            served.client.request('session/request_permission', params, { cancellationSignal: cancellation }),
        });
      })
      .onRequest('initialize', ({ params }) =>
        tracedAcpRequest('initialize', params, () => initializeResponse(this.core.version)),
      )
      .onRequest('authenticate', ({ params }) => tracedAcpRequest('authenticate', params, () => ({})))
      .onRequest('session/new', ({ params }) =>
        tracedAcpRequest('session/new', params, () => this.newSession(params)),
      )
      .onRequest('session/load', ({ params }) =>
        tracedAcpRequest('session/load', params, () => this.loadSession(params)),
      )
      .onRequest('session/list', ({ params }) =>
        tracedAcpRequest('session/list', params, () => this.listSessions(params)),
      )
      .onRequest('session/prompt', ({ params }) =>
        tracedAcpRequest('session/prompt', params, (span) => this.prompt(params, span)),
      )
      .onNotification('session/cancel', ({ params }) => this.cancel(params.sessionId));
  }

  private get client(): AcpSessionConnection {
    if (this.connection === null) throw new Error('ACP connection not open');
    return this.connection;
  }

  private async newSession(params: NewSessionRequest): Promise<{ sessionId: string }> {
    if (!path.isAbsolute(params.cwd)) throw AcpErrors.invalidParams('cwd: must be an absolute path');
    const mcp = threadMcpServers(params.mcpServers);
    if ('invalid' in mcp) throw AcpErrors.invalidParams(mcp.invalid);
    const hasServers = Object.keys(mcp.servers).length > 0;
    try {
      const { threadId } = await this.core.threads.start(
        {
          agentKey: DEFAULT_AGENT_KEY,
          cwd: params.cwd,
          metadata: {},
          ...(hasServers ? { mcpServers: mcp.servers } : {}),
        },
        this.client.id,
      );
      this.client.openSession(threadId, params.cwd);
      return { sessionId: threadId };
    } catch (error) {
      throw toAcpError(error);
    }
  }

  /** Replays the thread, then answers; events produced meanwhile follow the replay (the resume hold). */
  private async loadSession(params: LoadSessionRequest): Promise<Record<string, never>> {
    const client = this.client;
    let resumed;
    try {
      resumed = await this.core.threads.resume({ threadId: params.sessionId, subscribe: true }, client.id);
    } catch (error) {
      throw toAcpError(error, params.sessionId);
    }
    const { thread, items } = resumed.response;
    const planned = await this.plannedArgumentsOf(thread.threadId, items);
    const view = client.openSession(thread.threadId, thread.cwd ?? params.cwd);
    client.send(thread.threadId, view.replay(items, planned));
    await resumed.afterResponse?.();
    await client.flushed();
    return {};
  }

  /**
   * The model's arguments of the tool calls whose items carry none (they never ran). Only shown to
   * the client as `rawInput`, so a failed read leaves them `{}` rather than failing the load; the
   * failure is logged so the empty inputs can be told from a store problem.
   */
  private async plannedArgumentsOf(
    threadId: string,
    items: readonly AppItem[],
  ): Promise<ReadonlyMap<string, Record<string, unknown>>> {
    const ids = new Set<string>();
    for (const item of items)
      if (item.type === 'toolCall' && item.payload.arguments === undefined)
        ids.add(String(item.payload.toolCallId));
    try {
      return await this.core.threads.plannedToolArguments(threadId, ids);
    } catch (error) {
      this.logger.warn(
        `session/load ${threadId}: replaying refused tool calls without their arguments: ${causeMessage(error)}`,
      );
      return new Map();
    }
  }

  private async listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    let page;
    try {
      page = await this.core.threads.list({ cursor: params.cursor ?? undefined });
    } catch (error) {
      throw toAcpError(error);
    }
    const sessions = page.threads
      .map(sessionInfo)
      .filter((session): session is SessionInfo => session !== null)
      .filter((session) => params.cwd === undefined || params.cwd === null || session.cwd === params.cwd);
    return { sessions, ...(page.nextCursor !== null ? { nextCursor: page.nextCursor } : {}) };
  }

  /** Starts the turn and answers when it ends (docs/spec/acp.md §2 `session/prompt`). */
  private async prompt(params: PromptRequest, span?: TelemetrySpan): Promise<PromptResponse> {
    const client = this.client;
    const threadId = params.sessionId;
    const derived = promptInput(params.prompt);
    if ('invalid' in derived) throw AcpErrors.invalidParams(derived.invalid);
    if (client.hasActivePrompt(threadId) || this.pendingPrompts.has(threadId)) throw AcpErrors.activePrompt();
    const pending = { running: false, cancelled: false };
    this.pendingPrompts.set(threadId, pending);
    try {
      let started;
      try {
        if (!client.hasSession(threadId)) {
          const { thread } = await this.core.threads.read({ threadId, limit: 1 });
          client.openSession(threadId, thread.cwd);
        }
        started = await this.core.turns.start({ threadId, input: derived.input }, client.id, span);
      } catch (error) {
        throw toAcpError(error, threadId);
      }
      const completion = client.awaitTurn(threadId, started.response.turnId);
      // Awaited below; a connection closing while the turn begins must not reject it unobserved.
      completion.catch(() => undefined);
      await started.begin();
      pending.running = true;
      // A cancel that came while the turn was starting had nothing to interrupt yet: it does now.
      if (pending.cancelled) await this.interruptTurn(threadId);
      const outcome = promptOutcome(await completion, started.modelResponseEnding());
      // A prompt cancelled while pending answers cancelled (docs/spec/acp.md §2), also when its turn ended on
      // its own before the cancel could reach it.
      if (pending.cancelled) return { stopReason: 'cancelled' };
      if ('failure' in outcome) throw AcpErrors.turnFailed(outcome.failure);
      return { stopReason: outcome.stopReason };
    } finally {
      this.pendingPrompts.delete(threadId);
    }
  }

  /**
   * docs/spec/acp.md §2 `session/cancel`: interrupts the running turn, or the one a pending `session/prompt`
   * is starting as soon as it runs; nothing to cancel is not an error.
   */
  private async cancel(sessionId: string): Promise<void> {
    const pending = this.pendingPrompts.get(sessionId);
    if (pending !== undefined) {
      pending.cancelled = true;
      if (!pending.running) return;
    }
    await this.interruptTurn(sessionId);
  }

  private async interruptTurn(threadId: string): Promise<void> {
    let interrupted;
    try {
      interrupted = this.core.turns.interrupt({ threadId });
    } catch {
      return;
    }
    for (const announce of interrupted.announcements) await announce();
  }
}
