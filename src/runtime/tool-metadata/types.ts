/**
 * Typed tool metadata, `vv-agent.tool-metadata.v2` (docs/spec/runtime.md §9.2). A folder of its own
 * below tools, approvals and events: a tool declares it, the approval policy reads its side effect
 * and the RunEvent wire carries it, so none of those three needs another for it.
 */

export type ToolSideEffect = 'unknown' | 'none' | 'read' | 'write' | 'execute' | 'network' | 'external';
export type ToolIdempotency = 'unknown' | 'supported' | 'unsupported';

/** Normalized `vv-agent.tool-metadata.v2` declaration (snake_case, all six fields present). */
export interface ToolMetadata {
  side_effect: ToolSideEffect;
  idempotency: ToolIdempotency;
  terminal: boolean;
  result_retention: 'archive' | 'preserve';
  capability_tags: string[];
  cost_dimensions: string[];
}

/** What a tool author writes; normalized by `normalizeToolMetadata` (defaults filled in). */
export type ToolMetadataInput = Partial<ToolMetadata>;
