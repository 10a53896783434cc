/** One run from setup to its terminal event (docs/spec/runtime.md §2 step 6, §6.3, §7 runner integration). */
import type { Agent } from './agent';
import { AutoCompaction } from './compaction/auto-compaction';
import type { CompactionContext } from './compaction/compaction-step';
import { runManualCompaction } from './compaction/manual-compaction';
import { PromptSizeTracker } from './compaction/prompt-size-tracker';
import { Conversation } from './conversation';
import { runCycles } from './cycle-loop';
import { terminalEventPayload } from './events/run-event-factory';
import { RunEventSink } from './events/run-event-sink';
import type { ModelCallSetup } from './model/model-call';
import type { RunConfig, RunIdentity, RunResult } from './run-config';
import type { RunControl } from './run-control';
import type { RunJournal } from './run-journal';
import { failedOutcome, relabelIfCancelled, type RunOutcome } from './run-outcome';
import { buildRunResult } from './run-result';
import { RunSpans, serverAddressOf, type RunTrace } from './telemetry/run-spans';
import { prepareRun, type RunMode, type RunPlan, type RunnerDefaults } from './run-setup';
import { buildRunToolSet } from './tools/run-tool-set';
import type { ToolRunScope } from './tools/tool-run-scope';
import { UsageLedger } from './usage/usage-ledger';
import { causeMessage } from './cause-message';
import { resolveRunSandbox } from './sandbox/run-sandbox';

export interface RunLaunch {
  runner: RunnerDefaults;
  agent: Agent;
  config: RunConfig;
  identity: RunIdentity;
  control: RunControl;
  journal: RunJournal;
  /** `turn` (default): the cycle loop on the input; `compaction`: a manual compaction, no user turn. */
  mode?: RunMode;
  /** Fail-open event store warnings; default stderr. */
  warn?: (line: string) => void;
}

function toolScope(
  launch: RunLaunch,
  plan: RunPlan,
  sink: RunEventSink,
  spans: RunSpans | undefined,
): ToolRunScope {
  const { config, control, identity } = launch;
  const defaults = launch.runner.defaultRunConfig ?? {};
  return {
    runId: identity.runId,
    traceId: identity.traceId,
    agentName: identity.agentName,
    workspace: plan.workspace,
    metadata: plan.metadata,
    sharedState: { todo_list: [] },
    sandbox: resolveRunSandbox(
      config.sandbox ?? defaults.sandbox,
      config.commandSandbox ?? defaults.commandSandbox,
    ),
    registry: plan.registry,
    visibleTools: new Set(plan.visibleTools),
    toolPolicy: plan.toolPolicy,
    approval: {
      policy: plan.approvalPolicy,
      provider: config.approvalProvider ?? defaults.approvalProvider,
      broker: control.broker,
      timeoutMs: config.approvalTimeoutMs ?? defaults.approvalTimeoutMs,
    },
    sink,
    spans,
    signal: control.signal,
    isCancelled: () => control.cancelReason !== null,
    hasQueuedSteering: () => control.steering.size > 0,
  };
}

/**
 * Before a model call: a dynamic tool source whose list changed replaces its tools in the run's
 * registry, visible names and model specs; the source's warnings become warning diagnostics. A
 * changed list that cannot be registered (a duplicate name, a bad schema) keeps the previous tools
 * and is reported as a warning diagnostic.
 */
async function refreshDynamicTools(
  launch: RunLaunch,
  plan: RunPlan,
  scope: ToolRunScope,
  model: ModelCallSetup,
  sink: RunEventSink,
  signal: AbortSignal,
): Promise<void> {
  const source = launch.config.toolSource;
  if (source === undefined) return;
  const changed = await source.refresh(signal);
  for (const warning of source.takeWarnings?.() ?? [])
    await sink.emit({
      type: 'diagnostic',
      level: 'warning',
      code: warning.code,
      details: { message: warning.message },
    });
  if (!changed) return;
  try {
    const set = buildRunToolSet(launch.agent.tools, source.tools(), plan.toolPolicy);
    scope.registry = set.registry;
    scope.visibleTools = new Set(set.visibleTools);
    model.tools = set.toolSpecs;
  } catch (error) {
    await sink.emit({
      type: 'diagnostic',
      level: 'warning',
      code: 'tool_list_refresh_failed',
      details: { error: causeMessage(error) },
    });
  }
}

function runSpansOf(trace: RunTrace | undefined, plan: RunPlan): RunSpans | undefined {
  if (trace === undefined) return undefined;
  return new RunSpans(trace, serverAddressOf(plan.resolved.endpoint_options[0]?.endpoint.api_base));
}

/** Resolves with the result; rejects for setup failures (no events) and fail-closed store failures. */
export async function executeRun(launch: RunLaunch): Promise<RunResult> {
  const { agent, config, identity, control, journal } = launch;
  const defaults = launch.runner.defaultRunConfig ?? {};
  const plan = prepareRun(launch.runner, agent, identity.input, config, launch.mode);
  const spans = runSpansOf(config.trace ?? defaults.trace, plan);

  const sink = new RunEventSink(
    {
      runId: identity.runId,
      traceId: identity.traceId,
      agentName: identity.agentName,
      sessionId: plan.sessionId,
    },
    journal,
    {
      store: config.eventStore ?? defaults.eventStore,
      failClosed: config.eventStoreFailClosed ?? defaults.eventStoreFailClosed ?? false,
      warn: launch.warn,
      observe: spans === undefined ? undefined : (payload) => spans.observe(payload),
    },
  );
  await sink.emit({ type: 'run_started', input: identity.input });
  await sink.emit({ type: 'agent_started' });
  if (plan.trimmed) {
    await sink.emit({
      type: 'diagnostic',
      level: 'info',
      code: 'history_trimmed',
      details: { dropped_messages: plan.trimmed.dropped, kept_messages: plan.trimmed.kept },
    });
  }

  const conversation = new Conversation(plan.prefix);
  const ledger = new UsageLedger();
  const model: ModelCallSetup = {
    sink,
    client: plan.client,
    resolved: plan.resolved,
    settings: plan.settings,
    tools: plan.toolSpecs,
    ledger,
    signal: control.signal,
    spans,
  };
  const compaction: CompactionContext = {
    sink,
    model,
    conversation,
    cancelReason: () => control.cancelReason,
  };
  const promptSize = new PromptSizeTracker(conversation);
  promptSize.adopt(plan.promptSize, conversation.history().length);
  let outcome: RunOutcome;
  try {
    if (launch.mode === 'compaction') {
      outcome = await runManualCompaction(compaction, plan.resolved.context_length);
      // A compacted history has no provider figure yet.
      if (conversation.compactedHistory() !== undefined) promptSize.reset();
    } else {
      conversation.append(plan.userMessage, { turnInput: true });
      const tools = toolScope(launch, plan, sink, spans);
      outcome = await runCycles({
        maxCycles: plan.maxCycles,
        noToolPolicy: plan.noToolPolicy,
        conversation,
        sink,
        model,
        tools,
        refreshTools: () => refreshDynamicTools(launch, plan, tools, model, sink, control.signal),
        steering: control.steering,
        compaction: new AutoCompaction(compaction, plan.resolved, plan.autoCompaction, promptSize),
        cancelReason: () => control.cancelReason,
      });
    }
  } catch (error) {
    // A defect inside the loop still ends the run with one terminal event.
    outcome = failedOutcome(causeMessage(error), conversation.lastAssistantText());
  }
  outcome = relabelIfCancelled(outcome, control.cancelReason, conversation.lastAssistantText());

  control.recordOutcome(outcome);
  await sink.emit(terminalEventPayload(outcome));
  await sink.flush();
  if (sink.storeFailure !== null) throw new Error(sink.storeFailure);
  return buildRunResult(identity, outcome, ledger.snapshot(), conversation, promptSize, () =>
    journal.snapshot(),
  );
}
