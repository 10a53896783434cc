/**
 * The default host (docs/spec/protocol.md §10.3): a fixed agent (or one per agent key), a fixed base run
 * config with the thread's workspace, and a fixed model catalog.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Agent } from '../../runtime/agent';
import { makeDirectory } from '../../runtime/make-directory';
import type { RunConfig } from '../../runtime/run-config';
import type { AppModelInfo } from '../model/types';
import type { AppServerHost, HostTurnRequest, ModelListParams } from './app-server-host';

export interface DefaultAppServerHostOptions {
  /** Fixed agent for every turn. */
  agent?: Agent;
  /** Fixed base run config, cloned per turn. */
  runConfig?: RunConfig;
  /** Fixed catalog; default []. */
  models?: AppModelInfo[];
  /** Used when the thread has no cwd; default "./workspace". */
  defaultWorkspace?: string;
}

export const DEFAULT_AGENT_NAME = 'assistant';
export const DEFAULT_AGENT_INSTRUCTIONS = 'You are the default vv-agent App Server assistant.';
export const DEFAULT_WORKSPACE = './workspace';

export class DefaultAppServerHost implements AppServerHost {
  constructor(private readonly options: DefaultAppServerHostOptions = {}) {}

  async resolveAgent(request: HostTurnRequest): Promise<Agent> {
    if (this.options.agent !== undefined) return this.options.agent;
    const name = request.agentKey.trim();
    return Agent.create({
      name: name === '' ? DEFAULT_AGENT_NAME : name,
      instructions: DEFAULT_AGENT_INSTRUCTIONS,
    });
  }

  /**
   * A clone of the base run config with `workspace` = the thread's cwd (which must be an existing
   * directory) or the default workspace (created when missing), resolved against the process's
   * working directory, and `metadata.agent_key` = the agent key.
   */
  async buildRunConfig(request: HostTurnRequest): Promise<RunConfig> {
    const base = this.options.runConfig ?? {};
    const workspace =
      request.cwd !== null
        ? await existingDirectory(request.cwd)
        : await ensuredDirectory(this.defaultWorkspace);
    return { ...base, workspace, metadata: { ...(base.metadata ?? {}), agent_key: request.agentKey } };
  }

  async listModels(_params: ModelListParams): Promise<{ models: AppModelInfo[] }> {
    return { models: [...(this.options.models ?? [])] };
  }

  private get defaultWorkspace(): string {
    return this.options.defaultWorkspace ?? DEFAULT_WORKSPACE;
  }
}

async function existingDirectory(path: string): Promise<string> {
  const absolute = resolve(path);
  const isDirectory = await stat(absolute).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDirectory) throw new Error(`workspace directory not found: ${absolute}`);
  return absolute;
}

async function ensuredDirectory(path: string): Promise<string> {
  const absolute = resolve(path);
  await makeDirectory(absolute);
  return absolute;
}
