import type { ToolMetadataInput } from '../types';

/** Typed metadata both control tools declare (docs/spec/runtime.md §10.1). */
export const CONTROL_TOOL_METADATA: ToolMetadataInput = {
  side_effect: 'none',
  idempotency: 'supported',
  terminal: true,
  result_retention: 'archive',
  capability_tags: [],
  cost_dimensions: [],
};
