/** One shared definition object per built-in tool, so an agent's built-ins and the run registry agree. */
import { builtinTool } from './builtins/index';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName, type ToolDefinition } from './types';

const definitions = new Map<BuiltinToolName, ToolDefinition>();

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

export function sharedBuiltinTool(name: BuiltinToolName): ToolDefinition {
  let definition = definitions.get(name);
  if (!definition) {
    definition = builtinTool(name);
    definitions.set(name, definition);
  }
  return definition;
}

export function allBuiltinTools(): ToolDefinition[] {
  return BUILTIN_TOOL_NAMES.map(sharedBuiltinTool);
}
