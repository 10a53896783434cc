/**
 * Run config post-processing (docs/spec/protocol.md §10.2): what the server passes to `Runner.start` after
 * the host's `buildRunConfig`. Pure: the caller supplies the history and the server's approval
 * provider and broker.
 */
import type { ApprovalBroker } from '../../runtime/approvals/approval-broker';
import type { ApprovalPolicy, ApprovalProvider } from '../../runtime/approvals/types';
import type { Message } from '../../runtime/messages';
import type { PromptSize } from '../../runtime/compaction/prompt-size-tracker';
import type { RunConfig } from '../../runtime/run-config';
import type { CommandSandbox } from '../../runtime/sandbox/command-sandbox';
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';

export interface RunConfigContext {
  threadId: string;
  turnId: string;
  /** The HostTurnRequest metadata: thread metadata overlaid by the turn metadata. */
  requestMetadata: Record<string, unknown>;
  /** The thread's conversation history; used only when the host set no `initialMessages`. */
  history: readonly Message[];
  /** The thread's stored prompt-size figure for that history (docs/spec/history.md §1); same condition. */
  promptSize?: PromptSize;
  defaultApprovalPolicy: ApprovalPolicy;
  defaultApprovalTimeoutMs: number;
  /** The server's provider; used only when the host set none. */
  approvalProvider: ApprovalProvider;
  /** A fresh broker for this turn; used only when the host set none. */
  approvalBroker: ApprovalBroker;
  /**
   * docs/spec/sandbox.md §1: the turn's effective mode (already the strictest, the host's included) and
   * the server's boundary, used when the host brought none.
   */
  sandbox?: { mode: SandboxMode | undefined; boundary: CommandSandbox | null };
}

export interface PreparedRunConfig {
  /** What `Runner.start` receives: no `approvalTimeoutMs` (the server owns the approval timer). */
  config: RunConfig;
  /** The server's approval timer for this turn. */
  approvalTimeoutMs: number;
}

export function prepareRunConfig(host: RunConfig, context: RunConfigContext): PreparedRunConfig {
  const { approvalTimeoutMs, ...rest } = host;
  const config: RunConfig = {
    ...rest,
    approvalProvider: host.approvalProvider ?? context.approvalProvider,
    approvalBroker: host.approvalBroker ?? context.approvalBroker,
    approvalPolicy: host.approvalPolicy ?? context.defaultApprovalPolicy,
    // The three ids always overwrite spoofed values.
    metadata: {
      ...(host.metadata ?? {}),
      ...context.requestMetadata,
      thread_id: context.threadId,
      turn_id: context.turnId,
      session_id: context.threadId,
    },
    initialMessages: host.initialMessages ?? structuredClone([...context.history]),
  };
  if (context.sandbox?.mode !== undefined) config.sandbox = context.sandbox.mode;
  else delete config.sandbox;
  const boundary = host.commandSandbox ?? context.sandbox?.boundary ?? null;
  if (boundary !== null) config.commandSandbox = boundary;
  // The stored figure describes the stored history only; a host's own history brings its own.
  const promptSize = host.initialMessages ? host.promptSize : (host.promptSize ?? context.promptSize);
  if (promptSize !== undefined) config.promptSize = { ...promptSize };
  else delete config.promptSize;
  return { config, approvalTimeoutMs: approvalTimeoutMs ?? context.defaultApprovalTimeoutMs };
}
