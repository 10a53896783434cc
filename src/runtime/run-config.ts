/** RunConfig, RunResult and RunHandle contracts (docs/spec/runtime.md §3–§5). */
import type { ModelRef, ModelProvider, ModelSettings } from './model/types';
import type { DynamicToolSource } from './tools/dynamic-tool-source';
import type { ToolPolicy } from './tools/types';
import type { ApprovalPolicy, ApprovalProvider, ApprovalDecision } from './approvals/types';
import type { Message } from './messages';
import type { RunEvent } from './events/types';
import type { RunOutcome } from './run-outcome';
import type { TaskTokenUsage } from './usage/types';
import type { RunEventStore } from './events/run-event-store';
import type { ApprovalBroker } from './approvals/approval-broker';
import type { PromptSize } from './compaction/prompt-size-tracker';
import type { CommandSandbox } from './sandbox/command-sandbox';
import type { SandboxMode } from './sandbox/sandbox-mode';
import type { RunTrace } from './telemetry/run-spans';

export type NoToolPolicy = 'continue' | 'wait_user' | 'finish';

export interface RunConfig {
  model?: ModelRef;
  modelProvider?: ModelProvider;
  modelSettings?: ModelSettings;
  workspace?: string;
  maxCycles?: number;
  noToolPolicy?: NoToolPolicy;
  toolPolicy?: ToolPolicy;
  approvalPolicy?: ApprovalPolicy;
  approvalProvider?: ApprovalProvider;
  approvalBroker?: ApprovalBroker;
  /** Broker wait limit; absent = wait until resolved or cancelled. */
  approvalTimeoutMs?: number;
  metadata?: Record<string, unknown>;
  initialMessages?: Message[];
  /**
   * Automatic context compaction before model calls (docs/spec/history.md §1, docs/compaction.md); default
   * `true`. `false` keeps only the run-setup trimming of docs/spec/runtime.md §11.6.
   */
  autoCompaction?: boolean;
  /**
   * The previous run's `RunResult.promptSize` for `initialMessages`: the provider-reported prompt
   * size the compaction estimate starts from (docs/spec/history.md §1 "of this thread"). Ignored when setup
   * trimming dropped history or it does not fit the history.
   */
  promptSize?: PromptSize;
  /**
   * Extra tools after the agent's own, re-read before every model call so a changed list (an MCP
   * server's `tools/list_changed`) reaches the model within the run.
   */
  toolSource?: DynamicToolSource;
  /**
   * docs/spec/sandbox.md §1: the run's sandbox mode. Absent: `workspace-write` when a
   * `commandSandbox` is configured, else no restriction (an embedder without a sandbox).
   */
  sandbox?: SandboxMode;
  /** docs/spec/sandbox.md §3: the OS boundary `bash` runs in for a confined mode. */
  commandSandbox?: CommandSandbox;
  eventStore?: RunEventStore;
  eventStoreFailClosed?: boolean;
  /**
   * The span the run's model call, tool call and approval spans go under (docs/spec/observability.md
   * §2); absent = none are made.
   */
  trace?: RunTrace;
  budgetLimits?: Record<string, unknown>;
}

/** Which run: the fields of the RunResult that the run knows from its start. */
export interface RunIdentity {
  runId: string;
  traceId: string;
  agentName: string;
  input: string;
}

/** Which run, how it ended (the outcome matrix, §5.1) and what it produced. */
export interface RunResult extends RunIdentity, RunOutcome {
  /** finalAnswer ?? waitReason ?? error */
  readonly finalOutput: string | null;
  tokenUsage: TaskTokenUsage;
  budgetUsage?: Record<string, unknown>;
  budgetExhaustion?: Record<string, unknown>;
  newMessages: Message[];
  /**
   * Present only when a compaction took effect in this run (docs/spec/history.md §1): the conversation to
   * store IN PLACE OF the thread's history (non-system messages: the summary message, the kept
   * messages, then everything the run appended after the last compaction). When present, a host
   * replaces its stored history with it instead of appending `newMessages`; when absent (no
   * compaction, skipped, failed or interrupted), the history is unchanged and `newMessages` is
   * appended as before.
   */
  compactedHistory?: Message[];
  /**
   * The last provider-reported prompt size of a normal call and how many messages at the end of
   * the stored conversation (after applying this result) came after it; pass it as
   * `RunConfig.promptSize` with that conversation next time. Absent when there is none (no usage
   * reported, or a compaction or trimming since).
   */
  promptSize?: PromptSize;
  events: RunEvent[];
}

export type RunHandleStatus = 'running' | 'completed' | 'wait_user' | 'max_cycles' | 'failed' | 'cancelled';

export interface RunHandleState {
  status: RunHandleStatus;
  done: boolean;
  cancelled: boolean;
  error: string | null;
}

export interface RunHandle {
  readonly runId: string;
  readonly traceId: string;
  events(): AsyncIterable<RunEvent>;
  result(): Promise<RunResult>;
  cancel(reason?: string): boolean;
  steer(text: string): string;
  followUp(text: string): void;
  followUps(): string[];
  approve(requestId: string, decision: ApprovalDecision): Promise<void>;
  state(): RunHandleState;
}
