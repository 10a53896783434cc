import { readTodoList, TODO_LIST_STATE_KEY } from '../../../../../src/runtime/tools/builtins/index';
import { callTool, expectError, makeContext, parseContent } from './builtin-test-kit';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('todo_write', () => {
  it('replaces the list, fills defaults, generates 8-hex ids and reports it', async () => {
    const ctx = makeContext('/nonexistent-workspace-is-fine');
    const result = await callTool('todo_write', ctx, {
      todos: [
        { title: '  Write the parser  ', status: 'in_progress', priority: 'high' },
        { id: 'keep-me', title: 'Ship it' },
      ],
    });
    expect(result.status).toBe('success');
    expect(result.error_code).toBeNull();
    const content = parseContent(result);
    expect(Object.keys(content)).toEqual(['action', 'todos', 'count', 'message']);
    expect(content.action).toBe('write');
    expect(content.count).toBe(2);
    expect(content.message).toBe('TODO list updated successfully with 2 items');
    const todos = content.todos as Array<Record<string, unknown>>;
    expect(Object.keys(todos[0])).toEqual(['id', 'title', 'status', 'priority', 'created_at', 'updated_at']);
    expect(todos[0]).toMatchObject({ title: 'Write the parser', status: 'in_progress', priority: 'high' });
    expect(todos[0].id).toMatch(/^[0-9a-f]{8}$/);
    expect(todos[1]).toMatchObject({
      id: 'keep-me',
      title: 'Ship it',
      status: 'pending',
      priority: 'medium',
    });
    expect(todos[0].created_at).toMatch(ISO_UTC);
    expect(todos[0].updated_at).toMatch(ISO_UTC);
    expect(ctx.sharedState[TODO_LIST_STATE_KEY]).toEqual(todos);
    expect(readTodoList(ctx.sharedState)).toEqual(todos);
  });

  it('keeps created_at of existing ids and refreshes updated_at', async () => {
    const ctx = makeContext('/ws');
    ctx.sharedState[TODO_LIST_STATE_KEY] = [
      {
        id: 'a1',
        title: 'Old',
        status: 'pending',
        priority: 'low',
        created_at: '2020-01-01T00:00:00.000Z',
        updated_at: '2020-01-01T00:00:00.000Z',
      },
    ];
    const content = parseContent(
      await callTool('todo_write', ctx, {
        todos: [
          { id: 'a1', title: 'Old, renamed', status: 'completed', priority: 'low' },
          { title: 'New', status: 'pending', priority: 'low' },
        ],
      }),
    );
    const todos = content.todos as Array<Record<string, unknown>>;
    expect(todos[0].created_at).toBe('2020-01-01T00:00:00.000Z');
    expect(todos[0].updated_at).not.toBe('2020-01-01T00:00:00.000Z');
    expect(todos[1].created_at).not.toBe('2020-01-01T00:00:00.000Z');
  });

  it('accepts an empty list (clears it)', async () => {
    const ctx = makeContext('/ws');
    ctx.sharedState[TODO_LIST_STATE_KEY] = [{ id: 'x', title: 'x', status: 'pending', priority: 'low' }];
    const content = parseContent(await callTool('todo_write', ctx, { todos: [] }));
    expect(content.message).toBe('TODO list updated successfully with 0 items');
    expect(ctx.sharedState[TODO_LIST_STATE_KEY]).toEqual([]);
  });

  it.each([
    [{ todos: 'nope' }, 'invalid_todos_payload', '`todos` must be an array'],
    [{}, 'invalid_todos_payload', '`todos` must be an array'],
    [{ todos: [{ title: 'ok' }, 7] }, 'invalid_todo_item', 'TODO item at index 1 must be an object'],
    [{ todos: [{ title: ' \t ' }] }, 'todo_title_required', 'TODO item at index 0 is missing `title`'],
    [
      { todos: [{ title: 'a' }, { status: 'pending' }] },
      'todo_title_required',
      'TODO item at index 1 is missing `title`',
    ],
    [
      { todos: [{ title: 'Task', status: 'done' }] },
      'invalid_todo_status',
      'TODO item Task has invalid status done',
    ],
    [
      { todos: [{ title: 'Task', priority: 'urgent' }] },
      'invalid_todo_priority',
      'TODO item Task has invalid priority urgent',
    ],
    [
      {
        todos: [
          { title: 'A', status: 'in_progress' },
          { title: 'B', status: 'in_progress' },
        ],
      },
      'multiple_in_progress_todos',
      'Only one TODO item can be in_progress at a time',
    ],
  ])('%j → %s', async (args, code, message) => {
    const ctx = makeContext('/ws');
    const previous = [
      { id: 'p', title: 'P', status: 'pending', priority: 'low', created_at: 'x', updated_at: 'x' },
    ];
    ctx.sharedState[TODO_LIST_STATE_KEY] = previous;
    expectError(await callTool('todo_write', ctx, args), code, message);
    expect(ctx.sharedState[TODO_LIST_STATE_KEY]).toBe(previous);
  });
});
