/** `Runner`: starts runs on the event loop and hands back their handles (docs/spec/runtime.md §2). */
import type { Agent } from './agent';
import { ApprovalBroker } from './approvals/approval-broker';
import { newId } from './ids';
import type { ModelProvider } from './model/types';
import type { RunConfig, RunHandle, RunResult } from './run-config';
import { RunControl } from './run-control';
import { executeRun } from './run-execution';
import { LiveRunHandle } from './run-handle';
import { RunJournal } from './run-journal';
import { DEFAULT_WORKSPACE, type RunMode } from './run-setup';
import { causeMessage } from './cause-message';

export interface RunnerOptions {
  modelProvider?: ModelProvider;
  /** Default tool root ("./workspace"). */
  workspace?: string;
  defaultRunConfig?: RunConfig;
}

/** What a caller fixes about a run before it starts. */
export interface RunStartOptions {
  /**
   * The run's id (default: a new `run_` id), for a host that must record the run durably before
   * it may begin — the App Server persists a turn with its run id, and only a turn that was
   * created may call the model.
   */
  runId?: string;
}

export class Runner {
  readonly modelProvider: ModelProvider | undefined;
  readonly workspace: string;
  readonly defaultRunConfig: RunConfig;

  constructor(options: RunnerOptions = {}) {
    this.modelProvider = options.modelProvider;
    this.workspace = options.workspace ?? DEFAULT_WORKSPACE;
    this.defaultRunConfig = options.defaultRunConfig ?? {};
  }

  /** Returns at once; run-level problems reject `result()` and never throw here. */
  start(agent: Agent, input: string, config: RunConfig = {}, options: RunStartOptions = {}): RunHandle {
    return this.launch(agent, input, config, 'turn', options);
  }

  /**
   * Manual context compaction (docs/spec/history.md §1) of `config.initialMessages`, without a user turn.
   * Returns at once, like `start`. Events: `run_started {input: ""}`, `agent_started`,
   * `context_compaction_started {trigger: "manual"}`, the summary call's `model_call_*` events
   * (`operation: "context_compaction"`), then `context_compaction_completed` (carrying `history`,
   * or `skipped: true` without a model call when the history has fewer than 2 user messages) or
   * `context_compaction_failed`, then the terminal event: `run_completed` (`final_output: null`,
   * no `completion_reason`), `run_failed` with the summary call's error, or `run_cancelled`.
   * `result().compactedHistory` is the history to store when the compaction took effect.
   */
  compact(agent: Agent, config: RunConfig = {}, options: RunStartOptions = {}): RunHandle {
    return this.launch(agent, '', config, 'compaction', options);
  }

  private launch(
    agent: Agent,
    input: string,
    config: RunConfig,
    mode: RunMode,
    options: RunStartOptions,
  ): RunHandle {
    const runId = options.runId ?? newId('run_');
    const traceId = newId('trace_');
    const journal = new RunJournal();
    const broker = config.approvalBroker ?? this.defaultRunConfig.approvalBroker ?? new ApprovalBroker();
    const control = new RunControl(broker, journal);
    const identity = { runId, traceId, agentName: agent.name, input };

    const outcome = new Promise<RunResult>((resolve, reject) => {
      setImmediate(() => {
        executeRun({ runner: this, agent, config, identity, control, journal, mode }).then(
          (result) => {
            control.settle(null);
            resolve(result);
          },
          (error: unknown) => {
            control.settle(causeMessage(error));
            reject(error instanceof Error ? error : new Error(causeMessage(error)));
          },
        );
      });
    });
    // A host may read events() and never call result(): a rejection must not become unhandled.
    outcome.catch(() => undefined);
    return new LiveRunHandle(runId, traceId, journal, control, outcome);
  }

  run(agent: Agent, input: string, config?: RunConfig): Promise<RunResult> {
    return this.start(agent, input, config).result();
  }
}
