/**
 * An MCP tool's `inputSchema` as function `parameters` (docs/spec/mcp.md §3): validated with the runtime's
 * validator when it compiles there, otherwise shown to the model and passed to the server
 * unvalidated. The `$schema` dialect tag is dropped: servers commonly stamp draft-07 on schemas
 * whose keywords mean the same in the runtime's draft 2020-12, and the validator loads no draft-07
 * meta-schema (keeping the tag made every such tool fail the run).
 */
import { closeSchema, compileArgumentSchema } from '../argument-schema';
import type { JsonSchema } from '../types';

export interface McpParameters {
  parameters: JsonSchema;
  validateArguments: boolean;
}

export function mcpParameters(inputSchema: JsonSchema): McpParameters {
  const { $schema: _dialect, ...parameters } = inputSchema;
  try {
    compileArgumentSchema(closeSchema(parameters));
    return { parameters, validateArguments: true };
  } catch {
    return { parameters, validateArguments: false };
  }
}
