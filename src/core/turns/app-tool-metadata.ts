/** camelCase `toolMetadata` of toolCall items (docs/spec/protocol.md §5.4), without `result_retention`. */
import type { ToolMetadata } from '../../runtime/tools/types';
import type { AppToolMetadata } from '../model/types';

export function toAppToolMetadata(metadata: ToolMetadata): AppToolMetadata {
  return {
    sideEffect: metadata.side_effect,
    idempotency: metadata.idempotency,
    terminal: metadata.terminal,
    capabilityTags: [...metadata.capability_tags],
    costDimensions: [...metadata.cost_dimensions],
  };
}
