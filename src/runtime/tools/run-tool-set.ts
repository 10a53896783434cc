/** The tools of one run (docs/spec/runtime.md §9.3, §9.4): the registry, the model-visible names and their specs. */
import type { ToolSpec } from '../model/types';
import { allBuiltinTools } from './builtin-tool-catalog';
import { askUserTool } from './control/ask-user';
import { taskFinishTool } from './control/task-finish';
import { ToolRegistry, visibleToolNames } from './tool-registry';
import type { ToolDefinition, ToolPolicy } from './types';

const CONTROL_TOOLS = [taskFinishTool, askUserTool];

export interface RunToolSet {
  registry: ToolRegistry;
  visibleTools: string[];
  toolSpecs: ToolSpec[];
}

/**
 * Control tools, built-ins and the agent's tools, then a dynamic source's tools (they behave as
 * agent tools appended last). Throws `tool already registered` / `invalid tool parameters schema`.
 */
export function buildRunToolSet(
  agentTools: readonly ToolDefinition[],
  sourceTools: readonly ToolDefinition[],
  toolPolicy: ToolPolicy,
): RunToolSet {
  const registry = new ToolRegistry();
  const declared = [...agentTools, ...sourceTools];
  for (const tool of [...CONTROL_TOOLS, ...allBuiltinTools()]) registry.register(tool, 'trusted');
  for (const tool of declared) registry.register(tool);
  const visibleTools = visibleToolNames(
    CONTROL_TOOLS.map((tool) => tool.name),
    declared.map((tool) => tool.name),
    toolPolicy,
  );
  return { registry, visibleTools, toolSpecs: registry.specs(visibleTools) };
}
