/** Run setup steps 1–5 of docs/spec/runtime.md §2 and the precedence rules of §3.1. Throws; emits nothing. */
import { resolve as resolvePath } from 'node:path';
import type { Agent } from './agent';
import type { ApprovalPolicy } from './approvals/types';
import { estimatePromptTokens, exceedsCompactionThreshold } from './compaction/prompt-estimate';
import { anchorForHistory, type PromptSize } from './compaction/prompt-size-tracker';
import { trimHistory, type TrimResult } from './history-trimming';
import type { Message, SystemMessage, UserMessage } from './messages';
import { mergeModelSettings, validateModelSettings } from './model/model-settings';
import type { LlmClient, ModelSettings, ResolvedModelConfig, ToolSpec } from './model/types';
import type { NoToolPolicy, RunConfig } from './run-config';
import { buildRunToolSet } from './tools/run-tool-set';
import type { ToolRegistry } from './tools/tool-registry';
import type { ToolPolicy } from './tools/types';

export const DEFAULT_MAX_CYCLES = 10;
const MAX_CYCLES_LIMIT = 4_294_967_295;
export const DEFAULT_WORKSPACE = './workspace';

export interface RunnerDefaults {
  modelProvider?: RunConfig['modelProvider'];
  workspace?: string;
  defaultRunConfig?: RunConfig;
}

export interface RunPlan {
  maxCycles: number;
  noToolPolicy: NoToolPolicy;
  toolPolicy: ToolPolicy;
  approvalPolicy: ApprovalPolicy;
  metadata: Record<string, unknown>;
  sessionId: string | null;
  workspace: string;
  resolved: ResolvedModelConfig;
  client: LlmClient;
  settings: ModelSettings;
  registry: ToolRegistry;
  visibleTools: string[];
  toolSpecs: ToolSpec[];
  /** System message and the kept history; the user message follows. */
  prefix: Message[];
  userMessage: UserMessage;
  trimmed: { dropped: number; kept: number } | null;
  /** Automatic compaction before model calls (docs/spec/history.md §1); `RunConfig.autoCompaction`, default on. */
  autoCompaction: boolean;
  /** The previous run's prompt size for the history, while it still describes it (nothing trimmed). */
  promptSize: PromptSize | undefined;
}

/** `turn`: a run on an input; `compaction`: a manual compaction of the history (no user turn). */
export type RunMode = 'turn' | 'compaction';

function firstDefined<T>(...values: Array<T | undefined>): T | undefined {
  return values.find((value) => value !== undefined);
}

function effectiveMaxCycles(agent: Agent, config: RunConfig, defaults: RunConfig): number {
  const value = firstDefined(config.maxCycles, defaults.maxCycles, agent.maxCycles) ?? DEFAULT_MAX_CYCLES;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CYCLES_LIMIT) {
    throw new Error(`max_cycles must be between 1 and ${MAX_CYCLES_LIMIT}`);
  }
  return value;
}

/** `allowedTools` from the first layer that sets it; `disallowedTools` from all layers. */
export function effectiveToolPolicy(layers: Array<ToolPolicy | undefined>): ToolPolicy {
  const allowed = layers.find((layer) => layer?.allowedTools !== undefined)?.allowedTools;
  const disallowed = [...new Set(layers.flatMap((layer) => layer?.disallowedTools ?? []))];
  return {
    ...(allowed !== undefined ? { allowedTools: [...allowed] } : {}),
    disallowedTools: disallowed,
  };
}

export function prepareRun(
  runner: RunnerDefaults,
  agent: Agent,
  input: string,
  config: RunConfig,
  mode: RunMode = 'turn',
): RunPlan {
  const defaults = runner.defaultRunConfig ?? {};
  const maxCycles = effectiveMaxCycles(agent, config, defaults);

  const provider = config.modelProvider ?? defaults.modelProvider ?? runner.modelProvider;
  if (!provider) throw new Error('model provider is not configured');
  const modelRef = config.model ?? defaults.model ?? agent.model ?? provider.defaultModelRef?.();
  if (!modelRef) throw new Error('agent model is not configured');
  const resolved = provider.resolve(modelRef);
  const client = provider.client(resolved);
  const settings = validateModelSettings(
    mergeModelSettings(agent.modelSettings, mergeModelSettings(defaults.modelSettings, config.modelSettings)),
  );

  const toolPolicy = effectiveToolPolicy([config.toolPolicy, defaults.toolPolicy, agent.toolPolicy]);
  const { registry, visibleTools, toolSpecs } = buildRunToolSet(
    agent.tools,
    config.toolSource?.tools() ?? [],
    toolPolicy,
  );

  const metadata = { ...agent.metadata, ...(defaults.metadata ?? {}), ...(config.metadata ?? {}) };
  const sessionId =
    typeof metadata.session_id === 'string' && metadata.session_id !== '' ? metadata.session_id : null;

  const systemMessage: SystemMessage = { role: 'system', content: agent.instructions };
  const userMessage: UserMessage = { role: 'user', content: input };
  const history = (config.initialMessages ?? defaults.initialMessages ?? []).filter(
    (message) => message.role !== 'system',
  );
  const autoCompaction = firstDefined(config.autoCompaction, defaults.autoCompaction) ?? true;
  // A history past the compaction threshold is compacted before the first model call rather than
  // trimmed (trimming is compaction's fallback); a manual compaction summarizes the whole history.
  const compactsFirst =
    mode === 'compaction' ||
    (autoCompaction &&
      exceedsCompactionThreshold(
        estimatePromptTokens(
          [systemMessage, ...history, userMessage],
          toolSpecs,
          anchorForHistory(config.promptSize, history.length),
        ),
        resolved.context_length,
      ));
  const trim: TrimResult = compactsFirst
    ? { kept: [...history], droppedCount: 0 }
    : trimHistory({
        history,
        contextLength: resolved.context_length,
        maxOutputTokens: resolved.max_output_tokens,
        fixedMessages: [systemMessage, userMessage],
        toolSpecsJson: JSON.stringify(toolSpecs),
      });

  return {
    maxCycles,
    noToolPolicy: firstDefined(config.noToolPolicy, defaults.noToolPolicy, agent.noToolPolicy) ?? 'continue',
    toolPolicy,
    approvalPolicy: firstDefined(config.approvalPolicy, defaults.approvalPolicy) ?? 'on-request',
    metadata,
    sessionId,
    workspace: resolvePath(config.workspace ?? defaults.workspace ?? runner.workspace ?? DEFAULT_WORKSPACE),
    resolved,
    client,
    settings,
    registry,
    visibleTools,
    toolSpecs,
    prefix: [systemMessage, ...structuredClone(trim.kept)],
    userMessage,
    trimmed: trim.droppedCount > 0 ? { dropped: trim.droppedCount, kept: trim.kept.length } : null,
    autoCompaction,
    promptSize: trim.droppedCount === 0 ? config.promptSize : undefined,
  };
}
