/** The tools of one run: registration, the model-visible list and the specs sent to the model (§9.3, §9.4). */
import type { ToolSpec } from '../model/types';
import {
  closeSchema,
  compileArgumentSchema,
  DEFAULT_PARAMETERS,
  lazyArgumentValidator,
  type ArgumentValidator,
  type SchemaOrigin,
} from './argument-schema';
import { normalizeToolMetadata } from '../tool-metadata/tool-metadata';
import type { JsonSchema, ToolDefinition, ToolMetadata, ToolPolicy } from './types';

export const BASH_DESCRIPTION_SUFFIX =
  '\n\nRuntime shell hint: commands run via `bash` using prefix `bash -c` (non-login).';

export interface RegisteredTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  /** The parameters with every object schema closed (§9.3). */
  readonly parameters: JsonSchema;
  readonly validate: ArgumentValidator;
  /** Normalized declaration; null when the tool declared none (never inferred). */
  readonly toolMetadata: ToolMetadata | null;
}

/** Closed schemas and validators per definition object, so repeated runs do not recompile. */
const prepared = new WeakMap<ToolDefinition, RegisteredTool>();

function prepare(definition: ToolDefinition, origin: SchemaOrigin): RegisteredTool {
  const cached = prepared.get(definition);
  if (cached) return cached;
  const parameters = closeSchema(definition.parameters ?? DEFAULT_PARAMETERS);
  const tool: RegisteredTool = {
    name: definition.name,
    definition,
    parameters,
    validate: definition.validateArguments === false ? () => [] : lazyArgumentValidator(parameters, origin),
    toolMetadata:
      definition.toolMetadata === undefined ? null : normalizeToolMetadata(definition.toolMetadata),
  };
  prepared.set(definition, tool);
  return tool;
}

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  /**
   * Throws `tool already registered: <name>` and `invalid tool parameters schema: <detail>`. A
   * `checked` schema (the default) is compiled now, so a bad one fails the registration (§9.3); the
   * runtime's own tools register `trusted` and compile on first use (see SchemaOrigin).
   */
  register(definition: ToolDefinition, origin: SchemaOrigin = 'checked'): void {
    const existing = this.tools.get(definition.name);
    if (existing) {
      // The same definition object twice (e.g. a built-in listed by the agent) is one tool.
      if (existing.definition === definition) return;
      throw new Error(`tool already registered: ${definition.name}`);
    }
    const tool = prepare(definition, origin);
    if (origin === 'checked' && definition.validateArguments !== false)
      compileArgumentSchema(tool.parameters);
    this.tools.set(definition.name, tool);
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** Model-visible tool specs for these names (in order); `bash` gets the runtime shell hint. */
  specs(names: readonly string[]): ToolSpec[] {
    return names.flatMap((name) => {
      const tool = this.tools.get(name);
      if (!tool) return [];
      const description =
        name === 'bash' ? tool.definition.description + BASH_DESCRIPTION_SUFFIX : tool.definition.description;
      return [{ type: 'function' as const, function: { name, description, parameters: tool.parameters } }];
    });
  }
}

/**
 * The visible list (§9.4): control tools, then the agent's tools in declaration order; minus
 * `disallowedTools`, intersected with `allowedTools` when set, de-duplicated (first wins).
 */
export function visibleToolNames(
  controlToolNames: readonly string[],
  agentToolNames: readonly string[],
  policy: ToolPolicy,
): string[] {
  const disallowed = new Set(policy.disallowedTools ?? []);
  const allowed = policy.allowedTools ? new Set(policy.allowedTools) : null;
  const names = [...controlToolNames, ...agentToolNames].filter(
    (name) => !disallowed.has(name) && (allowed === null || allowed.has(name)),
  );
  return [...new Set(names)];
}

/** Whether the allow/deny policy permits calling `name` (§9.6 step 5). */
export function policyAllows(name: string, policy: ToolPolicy): boolean {
  if (policy.disallowedTools?.includes(name)) return false;
  return !policy.allowedTools || policy.allowedTools.includes(name);
}
