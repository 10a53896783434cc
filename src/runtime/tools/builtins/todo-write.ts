/** `todo_write` (docs/spec/runtime.md §10.3): replaces the run's structured TODO list. */
import { randomBytes } from 'node:crypto';

import type { ToolContext, ToolOutput } from '../types';
import type { ToolArgs } from './tool-arguments';
import { BuiltinToolError, guardBuiltin } from './tool-error';
import { jsonSuccessOutput } from './tool-output';

/** `sharedState` key of the run's TODO list (read by `task_finish`). */
export const TODO_LIST_STATE_KEY = 'todo_list';

export type TodoStatus = 'pending' | 'in_progress' | 'completed';
export type TodoPriority = 'low' | 'medium' | 'high';

export interface TodoItem {
  id: string;
  title: string;
  status: TodoStatus;
  priority: TodoPriority;
  /** ISO 8601 UTC. */
  created_at: string;
  updated_at: string;
}

const STATUSES: readonly string[] = ['pending', 'in_progress', 'completed'];
const PRIORITIES: readonly string[] = ['low', 'medium', 'high'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The run's current list; anything malformed in shared state reads as no list. */
export function readTodoList(sharedState: Record<string, unknown>): TodoItem[] {
  const value = sharedState[TODO_LIST_STATE_KEY];
  return Array.isArray(value) ? value.filter((item): item is TodoItem => isRecord(item)) : [];
}

function optionalText(item: Record<string, unknown>, key: string): string | undefined {
  const value = item[key];
  return typeof value === 'string' ? value : undefined;
}

function buildItem(
  raw: unknown,
  index: number,
  existingCreatedAt: ReadonlyMap<string, string>,
  now: string,
): TodoItem {
  if (!isRecord(raw)) {
    throw new BuiltinToolError('invalid_todo_item', `TODO item at index ${index} must be an object`);
  }
  const title = (optionalText(raw, 'title') ?? '').trim();
  if (title === '') {
    throw new BuiltinToolError('todo_title_required', `TODO item at index ${index} is missing \`title\``);
  }
  const status = (optionalText(raw, 'status') ?? 'pending').toLowerCase();
  if (!STATUSES.includes(status)) {
    throw new BuiltinToolError('invalid_todo_status', `TODO item ${title} has invalid status ${status}`);
  }
  const priority = (optionalText(raw, 'priority') ?? 'medium').toLowerCase();
  if (!PRIORITIES.includes(priority)) {
    throw new BuiltinToolError(
      'invalid_todo_priority',
      `TODO item ${title} has invalid priority ${priority}`,
    );
  }
  const id = (optionalText(raw, 'id') ?? '').trim() || randomBytes(4).toString('hex');
  return {
    id,
    title,
    status: status as TodoStatus,
    priority: priority as TodoPriority,
    created_at: existingCreatedAt.get(id) ?? now,
    updated_at: now,
  };
}

export function todoWriteHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const todos = args.todos;
    if (!Array.isArray(todos)) {
      throw new BuiltinToolError('invalid_todos_payload', '`todos` must be an array');
    }
    const existingCreatedAt = new Map(
      readTodoList(ctx.sharedState)
        .filter((item) => typeof item.id === 'string' && typeof item.created_at === 'string')
        .map((item) => [item.id, item.created_at] as const),
    );
    const now = new Date().toISOString();
    const list = todos.map((raw, index) => buildItem(raw, index, existingCreatedAt, now));
    if (list.filter((item) => item.status === 'in_progress').length > 1) {
      throw new BuiltinToolError(
        'multiple_in_progress_todos',
        'Only one TODO item can be in_progress at a time',
      );
    }
    ctx.sharedState[TODO_LIST_STATE_KEY] = list;
    return jsonSuccessOutput({
      action: 'write',
      todos: list,
      count: list.length,
      message: `TODO list updated successfully with ${list.length} items`,
    });
  });
}
