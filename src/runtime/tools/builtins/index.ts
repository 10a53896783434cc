/** Workspace built-in tools (docs/spec/runtime.md §10): definitions, specs and the shared-state items they own. */
import type { BuiltinToolName, ToolContext, ToolDefinition, ToolOutput } from '../types';
import { bashHandler } from './bash';
import { builtinToolMetadata } from './builtin-tool-metadata';
import { BUILTIN_TOOL_SPECS } from './builtin-tool-specs';
import { editFileHandler } from './edit-file';
import { fileInfoHandler } from './file-info';
import { findFilesHandler } from './find-files';
import { readFileHandler } from './read-file';
import { searchFilesHandler } from './search-files';
import { todoWriteHandler } from './todo-write';
import { writeFileHandler } from './write-file';

export { BUILTIN_TOOL_SPECS, type BuiltinToolSpec } from './builtin-tool-specs';
export { builtinToolMetadata } from './builtin-tool-metadata';
export { FILE_BASELINES_STATE_KEY, type BaselineSource, type FileBaseline } from './baselines';
export {
  readTodoList,
  TODO_LIST_STATE_KEY,
  type TodoItem,
  type TodoPriority,
  type TodoStatus,
} from './todo-write';
export { resolveWorkspacePath, type WorkspacePath } from './workspace-path';

type Handler = (ctx: ToolContext, args: Record<string, unknown>) => Promise<ToolOutput>;

const HANDLERS: Record<BuiltinToolName, Handler> = {
  find_files: findFilesHandler,
  file_info: fileInfoHandler,
  read_file: readFileHandler,
  write_file: writeFileHandler,
  edit_file: editFileHandler,
  search_files: searchFilesHandler,
  todo_write: todoWriteHandler,
  bash: bashHandler,
};

/** A fresh definition each call: its own copy of the §10.1 parameters and of the typed metadata. */
export function builtinTool(name: BuiltinToolName): ToolDefinition {
  const spec = BUILTIN_TOOL_SPECS[name];
  return {
    name: spec.name,
    description: spec.description,
    parameters: structuredClone(spec.parameters) as Record<string, unknown>,
    toolMetadata: builtinToolMetadata(name),
    // docs/spec/sandbox.md §4: bash runs inside the run's command sandbox.
    ...(name === 'bash' ? { sandboxed: true } : {}),
    handler: HANDLERS[name],
  };
}
