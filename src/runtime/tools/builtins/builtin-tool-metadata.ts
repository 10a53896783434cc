/** Typed metadata the workspace built-ins declare (runtime.md table after §10.1). */
import type { BuiltinToolName, ToolMetadata } from '../types';

function declaration(
  sideEffect: ToolMetadata['side_effect'],
  idempotency: ToolMetadata['idempotency'],
): ToolMetadata {
  return {
    side_effect: sideEffect,
    idempotency,
    terminal: false,
    result_retention: 'archive',
    capability_tags: [],
    cost_dimensions: [],
  };
}

const TABLE: Record<BuiltinToolName, () => ToolMetadata> = {
  todo_write: () => declaration('none', 'supported'),
  find_files: () => declaration('read', 'supported'),
  file_info: () => declaration('read', 'supported'),
  read_file: () => declaration('read', 'supported'),
  search_files: () => declaration('read', 'supported'),
  write_file: () => declaration('write', 'unsupported'),
  edit_file: () => declaration('write', 'unsupported'),
  bash: () => declaration('execute', 'unsupported'),
};

/** A fresh object per call, so a caller may not alter another's declaration. */
export function builtinToolMetadata(name: BuiltinToolName): ToolMetadata {
  return TABLE[name]();
}
