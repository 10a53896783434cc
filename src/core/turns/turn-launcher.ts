/**
 * Steps 2–7 of a turn start (docs/spec/protocol.md §3.9), shared with follow-up starts (§3.11): reload the
 * thread, resolve the host's agent and run config, post-process the config (§10.2), persist the
 * running turn, then start its run. The turn is persisted first so that a start refused by the
 * store (-32602 when it already holds a running turn of the thread, e.g. written by another server
 * on the same file or database) never calls the model. Host and store failures answer -32603 with
 * their message and leave nothing; a runner that throws leaves its turn failed.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { RunConfig, RunHandle } from '../../runtime/run-config';
import type { Agent } from '../../runtime/agent';
import { TURN_DEFAULTS, type TurnDefaults } from './turn-defaults';
import { newItemId, newTurnId } from '../ids';
import { newId } from '../../runtime/ids';
import { causeMessage } from '../../runtime/cause-message';
import { ApprovalRouter } from '../approvals/approval-router';
import { APP_SERVER_HOST, type AppServerHost, type HostTurnRequest } from '../host/app-server-host';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { ThreadHasActiveTurnError } from '../store/turn-conflict';
import type { StoredThread } from '../store/records';
import { DomainErrors } from '../domain-error';
import type { TurnKind } from './conversation-change';
import { McpServers } from '../mcp/mcp-servers.service';
import type { McpServerConfig } from '../../runtime/tools/mcp/server-config';
import { deriveInputText } from './input-text';
import { prepareRunConfig } from './run-config-preparation';
import { RunProjector } from './run-projector';
import { TurnTelemetry } from './turn-telemetry';
import type { TelemetrySpan } from '../../runtime/telemetry/telemetry';
import { RunningTurn } from './running-turn';
import { ThreadChangeCounters } from './thread-change-counters';
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { checkRequestedMode, effectiveMode } from '../sandbox/server-sandbox';

export interface TurnLaunch {
  thread: StoredThread;
  /** Verbatim turn input. */
  input: Record<string, unknown>[];
  /** Overlays the thread metadata for the host (`{}` for follow-ups); not persisted. */
  turnMetadata: Record<string, unknown>;
  ownerConnectionId: string;
  /** The span the turn's span goes under (docs/spec/observability.md §2). */
  traceParent?: TelemetrySpan;
  /** Default `agent`; `compaction` runs `Runner.compact` on the history (docs/spec/history.md §1). */
  kind?: TurnKind;
  /** docs/spec/sandbox.md §1: the `turn/start` `sandbox` param (already checked against the server's). */
  sandbox?: SandboxMode;
}

@Injectable()
export class TurnLauncher {
  constructor(
    @Inject(TURN_DEFAULTS) private readonly options: TurnDefaults,
    @Inject(APP_SERVER_HOST) private readonly host: AppServerHost,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(ThreadChangeCounters) private readonly counters: ThreadChangeCounters,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
    @Inject(McpServers) private readonly mcp: McpServers,
  ) {}

  /** docs/spec/sandbox.md §1: step 1 (validation) — a `sandbox` param looser than the server's fails -32602. */
  checkSandboxRequest(requested: SandboxMode | undefined): void {
    checkRequestedMode(this.options.sandbox, requested);
  }

  /** Steps 2–3: the thread as stored now; -32020 when unknown, -32021 when archived. */
  async loadStartableThread(threadId: string): Promise<StoredThread> {
    const thread = await this.store.threads.get(threadId);
    if (thread === null) throw DomainErrors.threadNotFound();
    if (thread.archivedAt !== null) throw DomainErrors.threadArchived();
    return thread;
  }

  /** Steps 5–7 (the caller holds the thread's turn slot). */
  async launch(launch: TurnLaunch): Promise<RunningTurn> {
    const runner = this.options.runner;
    if (runner === null) throw DomainErrors.runtimeNotConfigured();
    const { thread, input } = launch;
    const kind = launch.kind ?? 'agent';
    const { threadId } = thread;
    const turnId = newTurnId();
    const request: HostTurnRequest = {
      threadId,
      agentKey: thread.agentKey,
      cwd: thread.cwd,
      metadata: { ...thread.metadata, ...launch.turnMetadata },
    };
    const { agent, hostConfig } = await this.resolveHost(request);
    const stored = hostConfig.initialMessages
      ? { messages: [] }
      : await this.store.conversations.loadForRun(threadId);
    const changeCounter = await this.counters.counterFor(threadId);
    // docs/spec/sandbox.md §1: the strictest of the server's, the thread's, the turn's and the host's mode.
    const sandbox = effectiveMode(
      this.options.sandbox,
      thread.sandbox ?? undefined,
      launch.sandbox,
      hostConfig.sandbox,
    );
    const { config, approvalTimeoutMs } = prepareRunConfig(hostConfig, {
      threadId,
      turnId,
      requestMetadata: request.metadata,
      history: stored.messages,
      promptSize: stored.promptSize,
      defaultApprovalPolicy: this.options.approvalPolicy,
      defaultApprovalTimeoutMs: this.options.approvalTimeoutMs,
      ...this.approvals.approvalsForRun(threadId),
      sandbox: { mode: sandbox, boundary: this.options.sandbox?.boundary ?? null },
    });

    // docs/spec/mcp.md §2: the run starts the turn's MCP servers before its first model call (failures only
    // warn), so the turn is running, and can be interrupted, while a slow server starts.
    const mcpTools = this.mcp.toolsForTurn(
      threadId,
      agent,
      thread.mcpServers as Record<string, McpServerConfig> | null,
      config.approvalPolicy ?? this.options.approvalPolicy,
    );

    // The turn is created before its run starts: a start that loses the thread's turn slot in
    // the store (another process on the same store won it, §8.2) must never reach the model — a
    // provider bills a request even when it is aborted at once.
    const runId = newId('run_');
    try {
      await this.store.beginTurn({
        turnId,
        threadId,
        runId,
        input,
        startedAt: Date.now(),
        ...(sandbox !== undefined ? { sandbox } : {}),
      });
    } catch (error) {
      // Another server on the same store started a turn on this thread first (§8.2).
      if (error instanceof ThreadHasActiveTurnError) throw error;
      throw DomainErrors.internal(error);
    }
    const telemetry = new TurnTelemetry({
      threadId,
      turnId,
      agentKey: thread.agentKey,
      parent: launch.traceParent,
    });
    const trace = telemetry.runTrace();
    let handle: RunHandle;
    try {
      handle =
        kind === 'compaction'
          ? runner.compact(agent, trace === undefined ? config : { ...config, trace }, { runId })
          : runner.start(
              agent,
              deriveInputText(input),
              { ...config, toolSource: mcpTools, trace },
              { runId },
            );
    } catch (error) {
      telemetry.end('failed', 'run_start_failed');
      // The stored turn must not stay running without a run (§8.2: terminal statuses are final).
      await this.store
        .finishTurn({
          threadId,
          turnId,
          completion: { status: 'failed', completedAt: Date.now(), result: { error: causeMessage(error) } },
          messages: [],
          now: Date.now(),
        })
        .catch(() => undefined);
      throw DomainErrors.internal(error);
    }

    const projector = new RunProjector({
      threadId,
      turnId,
      runId,
      kind,
      input,
      now: () => Date.now(),
      newItemId,
      changeCounter,
      mcpTools: mcpTools.payloads,
    });
    return new RunningTurn({
      threadId,
      turnId,
      runId,
      kind,
      input,
      ownerConnectionId: launch.ownerConnectionId,
      handle,
      projector,
      changeCounter,
      approvalTimeoutMs,
      telemetry,
    });
  }

  /** `resolveAgent` then `buildRunConfig` (§10.1); any failure → -32603 with its message. */
  private async resolveHost(request: HostTurnRequest): Promise<{ agent: Agent; hostConfig: RunConfig }> {
    try {
      const agent = await this.host.resolveAgent(request);
      const hostConfig = await this.host.buildRunConfig(request);
      return { agent, hostConfig };
    } catch (error) {
      throw DomainErrors.internal(error);
    }
  }
}
