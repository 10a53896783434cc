import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ThreadEventKind } from '../../../../src/core/events/thread-event-bus';
import type { AppItem } from '../../../../src/core/model/types';
import { SessionUpdates } from '../../../../src/protocols/acp/session-updates';

const CWD = '/work/project';
let clock = 1_780_000_000_000;

function item(
  type: AppItem['type'],
  status: AppItem['status'],
  payload: Record<string, unknown>,
  itemId: string,
): AppItem {
  clock += 1;
  return {
    itemId,
    threadId: 'thread_1',
    turnId: 'turn_1',
    type,
    status,
    payload,
    createdAt: clock,
    updatedAt: clock,
  };
}

function toolCompleted(
  itemId: string,
  toolCallId: string,
  toolName: string,
  args: Record<string, unknown> | undefined,
  status: 'completed' | 'failed',
  output: string,
): AppItem {
  return item(
    'toolCall',
    status,
    {
      toolCallId,
      toolName,
      ...(args !== undefined ? { arguments: args } : {}),
      status: status === 'completed' ? 'success' : 'error',
      directive: 'continue',
      errorCode: status === 'completed' ? null : 'tool_approval_denied',
      executionStarted: args !== undefined,
      durationMs: args !== undefined ? 3 : null,
      output,
      outputTruncated: false,
    },
    itemId,
  );
}

const TODOS = [
  { title: 'Read the code', status: 'completed' },
  { title: 'Fix it', status: 'in_progress' },
  { title: 'Ship', status: 'PENDING' },
];
const DENIED_OUTPUT =
  '{"ok":false,"error":"approval denied","error_code":"tool_approval_denied","tool_name":"bash"}';

/** One turn as the core announces it, and the items it leaves in the store. */
function turn(): { events: Array<[ThreadEventKind, object]>; items: AppItem[] } {
  const user = item(
    'userMessage',
    'completed',
    { text: 'Fix the bug', input: [{ type: 'text', text: 'Fix the bug' }] },
    'i1',
  );
  const agentStarted = item('agentMessage', 'inProgress', { text: '' }, 'i2');
  const agentDone = { ...agentStarted, status: 'completed' as const, payload: { text: 'Hello' } };
  const readArgs = { path: 'a.txt' };
  const readStarted = item(
    'toolCall',
    'inProgress',
    { toolCallId: 'c1', toolName: 'read_file', arguments: readArgs },
    'i3',
  );
  const readDone = toolCompleted('i3', 'c1', 'read_file', readArgs, 'completed', 'old\n');
  const writeArgs = { path: 'a.txt', content: 'new\n' };
  const writeStarted = item(
    'toolCall',
    'inProgress',
    { toolCallId: 'c2', toolName: 'write_file', arguments: writeArgs },
    'i4',
  );
  const writeDone = toolCompleted(
    'i4',
    'c2',
    'write_file',
    writeArgs,
    'completed',
    '{"ok":true,"path":"a.txt"}',
  );
  const bashArgs = { command: 'rm -rf build' };
  const approval = {
    requestId: 'req_1',
    threadId: 'thread_1',
    turnId: 'turn_1',
    toolCallId: 'c3',
    toolName: 'bash',
    preview: 'Run rm -rf build',
    arguments: bashArgs,
  };
  const approvalStarted = item(
    'approval',
    'inProgress',
    {
      requestId: 'req_1',
      toolCallId: 'c3',
      toolName: 'bash',
      preview: 'Run rm -rf build',
      arguments: bashArgs,
    },
    'i5',
  );
  const approvalDone = {
    ...approvalStarted,
    status: 'completed' as const,
    payload: { ...approvalStarted.payload, decision: 'deny' },
  };
  const denied = toolCompleted('i6', 'c3', 'bash', undefined, 'failed', DENIED_OUTPUT);
  const todoArgs = { todos: TODOS };
  const todoStarted = item(
    'toolCall',
    'inProgress',
    { toolCallId: 'c4', toolName: 'todo_write', arguments: todoArgs },
    'i7',
  );
  const todoDone = toolCompleted('i7', 'c4', 'todo_write', todoArgs, 'completed', '{"ok":true}');
  const finishArgs = { message: 'Done' };
  const finishStarted = item(
    'toolCall',
    'inProgress',
    { toolCallId: 'c5', toolName: 'task_finish', arguments: finishArgs },
    'i8',
  );
  const finishDone = toolCompleted('i8', 'c5', 'task_finish', finishArgs, 'completed', 'Done');
  const final = item('agentMessage', 'completed', { text: 'Done', final: true }, 'i9');
  const delta = (text: string): object => ({ ...agentStarted, payload: { text }, delta: text });
  return {
    events: [
      ['turnStarted', { threadId: 'thread_1', turnId: 'turn_1' }],
      ['itemCompleted', user],
      ['itemStarted', agentStarted],
      ['agentMessageTextDelta', delta('Hel')],
      ['agentMessageTextDelta', delta('lo')],
      ['itemCompleted', agentDone],
      ['itemStarted', readStarted],
      ['toolCallArgumentsDelta', { ...readStarted, delta: readArgs }],
      ['itemCompleted', readDone],
      ['itemStarted', writeStarted],
      ['itemCompleted', writeDone],
      ['itemStarted', approvalStarted],
      ['approvalRequested', approval],
      ['approvalResolved', { threadId: 'thread_1', turnId: 'turn_1', requestId: 'req_1', decision: 'deny' }],
      ['itemCompleted', approvalDone],
      ['itemCompleted', denied],
      ['itemStarted', todoStarted],
      ['itemCompleted', todoDone],
      ['itemStarted', finishStarted],
      ['itemCompleted', finishDone],
      ['itemCompleted', final],
      ['turnCompleted', { threadId: 'thread_1', turnId: 'turn_1', status: 'completed' }],
    ],
    items: [user, agentDone, readDone, writeDone, approvalDone, denied, todoDone, finishDone, final],
  };
}

function live(): SessionUpdate[] {
  const view = new SessionUpdates(CWD);
  return turn().events.flatMap(([name, params]) => view.live(name, params));
}

/** What a client holds after the updates: agent texts in order, each tool call merged, the last plan. */
function fold(updates: readonly SessionUpdate[]): {
  texts: string[];
  calls: Record<string, unknown>[];
  plan: unknown;
} {
  const texts: string[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  let plan: unknown = null;
  let lastWasText = false;
  for (const update of updates) {
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      if (lastWasText) texts[texts.length - 1] += update.content.text;
      else texts.push(update.content.text);
      lastWasText = true;
      continue;
    }
    lastWasText = false;
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
      const { sessionUpdate: _kind, ...state } = update;
      calls.set(update.toolCallId, { ...calls.get(update.toolCallId), ...state });
    }
    if (update.sessionUpdate === 'plan') plan = update.entries;
  }
  return { texts, calls: [...calls.values()], plan };
}

describe('thread events → session/update (docs/spec/acp.md §3)', () => {
  it('streams agent text as chunks, tool calls as tool_call then tool_call_update, todo_write as a plan', () => {
    expect(live()).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lo' } },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Read a.txt',
        kind: 'read',
        status: 'in_progress',
        rawInput: { path: 'a.txt' },
        locations: [{ path: '/work/project/a.txt' }],
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'old\n' } }],
        rawOutput: { output: 'old\n' },
      },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c2',
        title: 'Write a.txt',
        kind: 'edit',
        status: 'in_progress',
        rawInput: { path: 'a.txt', content: 'new\n' },
        locations: [{ path: '/work/project/a.txt' }],
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c2',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: '{"ok":true,"path":"a.txt"}' } },
          { type: 'diff', path: '/work/project/a.txt', oldText: 'old\n', newText: 'new\n' },
        ],
        rawOutput: { output: '{"ok":true,"path":"a.txt"}' },
      },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c3',
        title: 'Run rm -rf build',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'rm -rf build' },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c3',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: DENIED_OUTPUT } }],
        rawOutput: { output: DENIED_OUTPUT },
      },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c4',
        title: 'Update plan',
        kind: 'other',
        status: 'in_progress',
        rawInput: { todos: TODOS },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c4',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: '{"ok":true}' } }],
        rawOutput: { output: '{"ok":true}' },
      },
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the code', priority: 'medium', status: 'completed' },
          { content: 'Fix it', priority: 'medium', status: 'in_progress' },
          { content: 'Ship', priority: 'medium', status: 'pending' },
        ],
      },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done' } },
    ]);
  });

  it('replays the items as user/agent chunks and each tool call once in its final state: what the live stream left', () => {
    const replayed = new SessionUpdates(CWD).replay(turn().items);
    expect(replayed[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'Fix the bug' },
    });
    expect(replayed.filter((u) => u.sessionUpdate === 'tool_call_update')).toEqual([]);
    expect(fold(replayed)).toEqual(fold(live()));
    expect(fold(replayed).texts).toEqual(['Hello', 'Done']);
  });

  it('replays only the last plan', () => {
    const { items } = turn();
    const todo = items.find((i) => i.payload.toolName === 'todo_write') as AppItem;
    const later = {
      ...todo,
      itemId: 'i10',
      payload: {
        ...todo.payload,
        toolCallId: 'c6',
        arguments: { todos: [{ title: 'Only', status: 'completed' }] },
      },
    };
    const plans = new SessionUpdates(CWD).replay([...items, later]).filter((u) => u.sessionUpdate === 'plan');
    expect(plans).toEqual([
      { sessionUpdate: 'plan', entries: [{ content: 'Only', priority: 'medium', status: 'completed' }] },
    ]);
  });

  it('shows a call refused before it ran, never announced, as a failed tool_call', () => {
    const view = new SessionUpdates(CWD);
    const refused = toolCompleted('i1', 'c9', 'read_file', undefined, 'failed', '{"ok":false}');
    expect(view.live('itemCompleted', refused)).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c9',
        title: 'Read file',
        kind: 'read',
        status: 'failed',
        rawInput: {},
        content: [{ type: 'content', content: { type: 'text', text: '{"ok":false}' } }],
        rawOutput: { output: '{"ok":false}' },
      },
    ]);
  });

  it("shows a refused call with the model's planned arguments: live from the event's detail, replayed from the map", () => {
    const planned = { path: 'src/app.ts', start_line: 0 };
    const refused = toolCompleted('i1', 'c9', 'read_file', undefined, 'failed', '{"ok":false}');
    const expected = {
      sessionUpdate: 'tool_call',
      toolCallId: 'c9',
      title: 'Read src/app.ts',
      kind: 'read',
      status: 'failed',
      rawInput: planned,
      locations: [{ path: '/work/project/src/app.ts' }],
      content: [{ type: 'content', content: { type: 'text', text: '{"ok":false}' } }],
      rawOutput: { output: '{"ok":false}' },
    };
    expect(new SessionUpdates(CWD).live('itemCompleted', refused, { plannedArguments: planned })).toEqual([
      expected,
    ]);
    expect(new SessionUpdates(CWD).replay([refused], new Map([['c9', planned]]))).toEqual([expected]);
    // A planned entry never overrides the arguments an executed call's item carries.
    const ran = toolCompleted('i2', 'c8', 'read_file', { path: 'a.txt' }, 'completed', 'x');
    const [replayed] = new SessionUpdates(CWD).replay([ran], new Map([['c8', planned]]));
    expect(replayed).toMatchObject({ rawInput: { path: 'a.txt' }, title: 'Read a.txt' });
  });

  it('turns an approved call from pending to in_progress to completed without a second tool_call', () => {
    const view = new SessionUpdates(CWD);
    const args = { command: 'ls' };
    const request = {
      requestId: 'r',
      threadId: 't',
      turnId: 'u',
      toolCallId: 'c1',
      toolName: 'bash',
      preview: 'Run ls',
      arguments: args,
    };
    const started = item(
      'toolCall',
      'inProgress',
      { toolCallId: 'c1', toolName: 'bash', arguments: args },
      'i1',
    );
    const kinds = [
      ...view.live('approvalRequested', request),
      ...view.live('itemStarted', started),
      ...view.live('itemCompleted', toolCompleted('i1', 'c1', 'bash', args, 'completed', 'a\n')),
    ].map((u) => [u.sessionUpdate, 'status' in u ? u.status : undefined]);
    expect(kinds).toEqual([
      ['tool_call', 'pending'],
      ['tool_call_update', 'in_progress'],
      ['tool_call_update', 'completed'],
    ]);
  });

  it('does not repeat a streamed agent message, and ignores the user message live', () => {
    const view = new SessionUpdates(CWD);
    expect(view.live('itemCompleted', item('agentMessage', 'completed', { text: 'Hello' }, 'i1'))).toEqual(
      [],
    );
    expect(view.live('itemCompleted', item('userMessage', 'completed', { text: 'hi' }, 'i2'))).toEqual([]);
    expect(view.live('agentMessageTextDelta', { delta: '' })).toEqual([]);
  });
});
