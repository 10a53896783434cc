/**
 * Startup steps 2–3 of docs/spec/protocol.md §12.3 and the production configuration of §12.4: settings file →
 * exact model → model provider (HTTP client, or the scripted test hook) → AppServerModule options.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../runtime/agent';
import { Runner } from '../runtime/runner';
import { ScriptedLlmClient } from '../runtime/model/scripted-model';
import { loadScriptedModelFile } from '../runtime/model/scripted-model-file';
import {
  createOpenAiCompatibleClient,
  FixedModelProvider,
  loadLlmSettings,
  resolveModelEndpoint,
  type LlmSettings,
} from '../runtime/llm';
import type { LlmClient, ResolvedModelConfig } from '../runtime/model/types';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../runtime/tools/types';
import { McpConfigError, parseMcpConfig } from '../runtime/tools/mcp/mcp-config-file';
import type { McpServerConfig } from '../runtime/tools/mcp/server-config';
import type { AppServerModuleOptions } from '../nest/app-server-options';
import type { AppModelInfo } from '../core/model/types';
import type { ListenOptions } from './cli-invocation';
import { isPostgresStoreUrl } from '../persistence/postgres/store-url';
import { withSettingsChoices } from './settings-choices';
import { CliConfigurationError } from './cli-configuration-error';
import { openServerSandbox } from './server-sandbox';

export { CliConfigurationError };

export const PRODUCTION_INSTRUCTIONS =
  'You are the vv-agent App Server assistant. Complete user requests with available tools.';
/** Every built-in, in the order §12.4 lists them (after the two control tools every agent has). */
export const PRODUCTION_TOOLS: readonly BuiltinToolName[] = BUILTIN_TOOL_NAMES;
const PRODUCTION_MAX_CYCLES = 80;

export function defaultStorePath(env: NodeJS.ProcessEnv): string {
  const home =
    env.VV_AGENT_HOME && env.VV_AGENT_HOME.trim() !== '' ? env.VV_AGENT_HOME : join(homedir(), '.vv-agent');
  return join(home, 'app-server.sqlite');
}

function modelCatalogEntry(resolved: ResolvedModelConfig, backend: string, model: string): AppModelInfo {
  const entry: AppModelInfo = {
    id: resolved.model_id,
    provider: backend,
    displayName: resolved.display_name ?? model,
    supportsTools: resolved.function_call_available,
    metadata: { requestedModel: model },
  };
  if (resolved.context_length !== null) entry.contextLength = resolved.context_length;
  return entry;
}

function buildClient(
  options: ListenOptions,
  settings: LlmSettings,
  resolved: ResolvedModelConfig,
  env: NodeJS.ProcessEnv,
): LlmClient {
  const scriptPath = env.VV_AGENT_SCRIPTED_MODEL_FILE;
  if (scriptPath !== undefined && scriptPath !== '') {
    return new ScriptedLlmClient(loadScriptedModelFile(scriptPath));
  }
  return createOpenAiCompatibleClient(settings, resolved, { timeoutSeconds: options.timeoutSeconds });
}

/** docs/spec/mcp.md §1: read once at startup; any problem → `--mcp-config: <cause>` (exit 2). */
export function loadMcpConfigFile(path: string, env: NodeJS.ProcessEnv): Record<string, McpServerConfig> {
  try {
    return parseMcpConfig(readFileSync(path, 'utf8'), env);
  } catch (error) {
    // A parse problem (McpConfigError) or an unreadable file (ENOENT …): the cause either way.
    const cause = error instanceof McpConfigError || error instanceof Error ? error.message : String(error);
    throw new CliConfigurationError(`--mcp-config: ${cause}`);
  }
}

/**
 * `buildProductionServerOptions` for a command: a configuration error is written to stderr as its
 * message and recorded as exit code 2 (docs/spec/protocol.md §12.3), and the command gets null.
 */
export function productionServerOptionsOrExit(
  options: ListenOptions,
  env: NodeJS.ProcessEnv,
  outcome: { exitCode: number },
): AppServerModuleOptions | null {
  try {
    return buildProductionServerOptions(options, env);
  } catch (error) {
    if (!(error instanceof CliConfigurationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    outcome.exitCode = 2;
    return null;
  }
}

/** Throws CliConfigurationError with the loader's exact message. */
export function buildProductionServerOptions(
  options: ListenOptions,
  env: NodeJS.ProcessEnv,
): AppServerModuleOptions {
  let resolved: ResolvedModelConfig;
  let client: LlmClient;
  let settings: LlmSettings | null = null;
  try {
    settings = loadLlmSettings(options.settings);
    resolved = resolveModelEndpoint(settings, options.backend, options.model, env);
    client = buildClient(options, settings, resolved, env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliConfigurationError(
      settings === null ? message : withSettingsChoices(message, settings, options.backend),
    );
  }
  const mcpServers = options.mcpConfig === null ? {} : loadMcpConfigFile(options.mcpConfig, env);
  const store: AppServerModuleOptions['store'] =
    options.store !== null && isPostgresStoreUrl(options.store)
      ? { url: options.store }
      : { path: options.store ?? defaultStorePath(env) };
  const storeFile = 'path' in store && store.path !== ':memory:' ? store.path : null;
  // docs/spec/sandbox.md §3: probed once, here, before stdin is read.
  const sandbox = openServerSandbox(options, env, storeFile);
  const provider = new FixedModelProvider(resolved, client);
  const agent = Agent.create({
    name: 'assistant',
    instructions: PRODUCTION_INSTRUCTIONS,
    model: { type: 'resolved', config: resolved },
    tools: [...PRODUCTION_TOOLS],
    maxCycles: PRODUCTION_MAX_CYCLES,
    noToolPolicy: 'continue',
  });
  return {
    runner: new Runner({ modelProvider: provider }),
    agent,
    runConfig: { maxCycles: PRODUCTION_MAX_CYCLES, noToolPolicy: 'continue' },
    models: [modelCatalogEntry(resolved, options.backend, options.model)],
    store,
    sandbox,
    approvalPolicy: options.approvalPolicy,
    approvalTimeoutMs: Math.round(options.approvalTimeoutSeconds * 1000),
    maxMessageBytes: options.maxMessageBytes,
    maxQueuedRequests: 128,
    mcpServers,
  };
}
