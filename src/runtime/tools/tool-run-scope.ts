/** Everything the per-call pipeline needs from its run. */
import type { ApprovalBroker } from '../approvals/approval-broker';
import type { ApprovalPolicy, ApprovalProvider } from '../approvals/types';
import type { RunEventSink } from '../events/run-event-sink';
import type { RunSandbox } from '../sandbox/run-sandbox';
import type { RunSpans } from '../telemetry/run-spans';
import type { ToolRegistry } from './tool-registry';
import type { ToolContext, ToolPolicy } from './types';

export interface ApprovalSettings {
  policy: ApprovalPolicy;
  provider?: ApprovalProvider;
  broker: ApprovalBroker;
  timeoutMs?: number;
}

export interface ToolRunScope {
  runId: string;
  traceId: string;
  agentName: string;
  workspace: string;
  metadata: Record<string, unknown>;
  sharedState: Record<string, unknown>;
  /** docs/spec/sandbox.md §1: the run's effective mode and boundary; null when none is configured. */
  sandbox: RunSandbox | null;
  registry: ToolRegistry;
  visibleTools: ReadonlySet<string>;
  toolPolicy: ToolPolicy;
  approval: ApprovalSettings;
  sink: RunEventSink;
  /** The run's spans (docs/spec/observability.md §2): a tool call's context for MCP `_meta`. */
  spans?: RunSpans;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  isCancelled(): boolean;
  hasQueuedSteering(): boolean;
}

export function toolContext(
  scope: ToolRunScope,
  toolCallId: string,
  toolName: string,
  signal: AbortSignal,
): ToolContext {
  return {
    runId: scope.runId,
    agentName: scope.agentName,
    toolCallId,
    toolName,
    workspace: scope.workspace,
    metadata: scope.metadata,
    sharedState: scope.sharedState,
    signal,
    ...(scope.sandbox !== null ? { sandbox: scope.sandbox } : {}),
  };
}
