/** The immutable agent definition (docs/spec/runtime.md §1). */
import type { ModelRef, ModelSettings } from './model/types';
import type { NoToolPolicy } from './run-config';
import { isBuiltinToolName, sharedBuiltinTool } from './tools/builtin-tool-catalog';
import { normalizeToolMetadata } from './tool-metadata/tool-metadata';
import type { BuiltinToolName, ToolDefinition, ToolPolicy } from './tools/types';
import type { McpServerConfig } from './tools/mcp/server-config';

export interface AgentOptions {
  name: string;
  instructions: string;
  model?: ModelRef;
  modelSettings?: ModelSettings;
  tools?: Array<ToolDefinition | BuiltinToolName>;
  maxCycles?: number;
  noToolPolicy?: NoToolPolicy;
  toolPolicy?: ToolPolicy;
  metadata?: Record<string, unknown>;
  /** MCP servers whose tools this agent may use (docs/spec/mcp.md §1 "Host"); started by the embedding server. */
  mcpServers?: Record<string, McpServerConfig>;
}

function resolveTool(entry: ToolDefinition | BuiltinToolName): ToolDefinition {
  if (typeof entry === 'string') {
    if (!isBuiltinToolName(entry)) throw new Error(`unknown built-in tool: ${entry}`);
    return sharedBuiltinTool(entry);
  }
  if (typeof entry.name !== 'string' || entry.name.trim() === '')
    throw new Error('tool name cannot be empty');
  // Typed metadata is validated at definition time (§9.2); the registry keeps the normalized form.
  if (entry.toolMetadata !== undefined) normalizeToolMetadata(entry.toolMetadata);
  return entry;
}

function freezeList<T>(items: readonly T[] | undefined): readonly T[] | undefined {
  return items === undefined ? undefined : Object.freeze([...items]);
}

export class Agent {
  readonly name: string;
  /** The entire system prompt, verbatim. */
  readonly instructions: string;
  readonly model: ModelRef | undefined;
  readonly modelSettings: ModelSettings | undefined;
  /** Model-visible tools on top of the control tools, in declaration order (built-ins resolved). */
  readonly tools: readonly ToolDefinition[];
  readonly maxCycles: number | undefined;
  readonly noToolPolicy: NoToolPolicy | undefined;
  readonly toolPolicy: ToolPolicy | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;

  private constructor(options: AgentOptions, tools: ToolDefinition[]) {
    this.name = options.name;
    this.instructions = options.instructions;
    this.model = options.model;
    this.modelSettings = options.modelSettings ? Object.freeze({ ...options.modelSettings }) : undefined;
    this.tools = Object.freeze(tools);
    this.maxCycles = options.maxCycles;
    this.noToolPolicy = options.noToolPolicy;
    this.toolPolicy = options.toolPolicy
      ? Object.freeze({
          allowedTools: freezeList(options.toolPolicy.allowedTools) as string[] | undefined,
          disallowedTools: freezeList(options.toolPolicy.disallowedTools) as string[] | undefined,
        })
      : undefined;
    this.metadata = Object.freeze({ ...(options.metadata ?? {}) });
    this.mcpServers = Object.freeze({ ...(options.mcpServers ?? {}) });
    Object.freeze(this);
  }

  static create(options: AgentOptions): Agent {
    if (typeof options.name !== 'string' || options.name.trim() === '') {
      throw new Error('agent name cannot be empty');
    }
    if (typeof options.instructions !== 'string' || options.instructions.trim() === '') {
      throw new Error('agent instructions cannot be empty');
    }
    return new Agent(options, (options.tools ?? []).map(resolveTool));
  }
}
