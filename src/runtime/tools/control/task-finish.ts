/** `task_finish`: ends the run with a user-facing result (docs/spec/runtime.md §10.3). */
import type { ToolContext, ToolDefinition, ToolOutput } from '../types';
import { CONTROL_TOOL_METADATA } from './control-metadata';

export const TASK_FINISH_TOOL_NAME = 'task_finish';
const DEFAULT_MESSAGE = 'Task completed';

export const TASK_FINISH_PARAMETERS = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'Final user-facing result.' },
    require_all_todos_completed: {
      type: 'boolean',
      description: 'Reject finish while TODOs remain unless false.',
    },
    exposed_files: {
      type: 'array',
      items: { type: 'string' },
      description: 'Workspace-relative deliverable paths to expose to the user.',
    },
  },
  required: [],
};

function incompleteTodoTitles(sharedState: Record<string, unknown>): string[] {
  const list = sharedState.todo_list;
  if (!Array.isArray(list)) return [];
  return list
    .filter((item: unknown) => {
      const status = (item as { status?: unknown } | null)?.status;
      return status !== 'completed';
    })
    .map((item: unknown) => String((item as { title?: unknown } | null)?.title ?? ''));
}

function exposedFiles(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

async function finishTask(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
  const rawMessage = typeof args.message === 'string' ? args.message.trim() : '';
  const message = rawMessage === '' ? DEFAULT_MESSAGE : rawMessage;
  if (args.require_all_todos_completed !== false) {
    const incomplete = incompleteTodoTitles(ctx.sharedState);
    if (incomplete.length > 0) {
      return {
        type: 'result',
        result: {
          content: JSON.stringify({
            ok: false,
            error_code: 'todo_incomplete',
            error: 'Cannot finish task while todo items are incomplete',
            incomplete_todos: incomplete,
          }),
          status: 'error',
          directive: 'continue',
          error_code: 'todo_incomplete',
          metadata: {},
        },
      };
    }
  }
  const files = exposedFiles(args.exposed_files);
  return {
    type: 'result',
    result: {
      content: JSON.stringify({ ok: true, message }),
      status: 'success',
      directive: 'finish',
      error_code: null,
      metadata: { final_message: message, ...(files.length > 0 ? { exposed_files: files } : {}) },
    },
  };
}

export const taskFinishTool: ToolDefinition = {
  name: TASK_FINISH_TOOL_NAME,
  description:
    'Explicitly finish the run with a user-facing result when the requested work is complete. This tool is optional when the configured no-tool policy allows natural completion; the runtime still enforces unfinished-TODO checks.',
  parameters: TASK_FINISH_PARAMETERS,
  toolMetadata: CONTROL_TOOL_METADATA,
  handler: finishTask,
};
