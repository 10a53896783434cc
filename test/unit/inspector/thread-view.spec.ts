/**
 * The page's thread state (inspector/src/state/thread-view.ts): snapshot + notifications upserted
 * by itemId, deltas appended, nothing lost or doubled across a resume (docs/spec/inspector.md §4,
 * docs/spec/protocol.md §3.4, docs/spec/websocket.md §5).
 */
import {
  applyNotification,
  applySnapshot,
  emptyThreadView,
  lastCreatedItemId,
  type ThreadView,
} from '../../../inspector/src/state/thread-view';
import type { JsonObject } from '../../../inspector/src/rpc/json-value';

const base = { threadId: 't', turnId: 'u', createdAt: 1 };
const message = (text: string, updatedAt: number, status = 'inProgress'): JsonObject => ({
  ...base,
  itemId: 'a',
  type: 'agentMessage',
  status,
  payload: { text },
  updatedAt,
});
const delta = (chunk: string, updatedAt: number): JsonObject => ({
  ...message(chunk, updatedAt),
  delta: chunk,
});
const textOf = (view: ThreadView, id = 'a'): unknown => view.items.get(id)?.payload.text;

describe('thread view', () => {
  it('assembles streamed text from deltas and takes the completed text', () => {
    let view = emptyThreadView('t');
    view = applyNotification(view, 'turn/started', { threadId: 't', turnId: 'u' });
    view = applyNotification(view, 'item/started', message('', 1));
    view = applyNotification(view, 'item/agentMessage/delta', delta('Hel', 2));
    view = applyNotification(view, 'item/agentMessage/delta', delta('lo', 2));
    expect(textOf(view)).toBe('Hello');
    view = applyNotification(view, 'item/completed', message('Hello', 3, 'completed'));
    expect(view.items.get('a')?.status).toBe('completed');
    expect(view.order).toEqual(['a']);
  });

  it('continues a resumed snapshot without doubling: late started is ignored, later deltas append', () => {
    let view = applySnapshot(emptyThreadView('t'), {
      thread: { threadId: 't', status: 'running' },
      turns: [{ turnId: 'u', status: 'running', startedAt: 1, input: [], result: {} }],
      items: [message('part one, ', 5)],
    });
    view = applyNotification(view, 'item/started', message('', 1));
    expect(textOf(view)).toBe('part one, ');
    view = applyNotification(view, 'item/agentMessage/delta', delta('part two.', 6));
    expect(textOf(view)).toBe('part one, part two.');
    expect(lastCreatedItemId(view)).toBe('a');
  });

  it('a reconnect snapshot merges into what the page holds', () => {
    let view = applyNotification(emptyThreadView('t'), 'item/completed', {
      ...message('x', 2, 'completed'),
      itemId: 'b',
    });
    view = applySnapshot(view, {
      thread: { threadId: 't' },
      turns: [],
      items: [message('done', 9, 'completed')],
    });
    expect(view.order).toEqual(['b', 'a']);
    expect(textOf(view)).toBe('done');
  });

  it('records turn/completed as the turn result and keeps unknown notifications harmless', () => {
    let view = applyNotification(emptyThreadView('t'), 'turn/started', { threadId: 't', turnId: 'u' });
    view = applyNotification(view, 'something/new', { threadId: 't', turnId: 'u' });
    view = applyNotification(view, 'turn/completed', {
      threadId: 't',
      turnId: 'u',
      runId: 'r',
      status: 'interrupted',
      error: 'turn interrupted',
    });
    expect(view.turns.get('u')).toMatchObject({
      status: 'interrupted',
      result: { error: 'turn interrupted' },
    });
  });

  it('appends live command output (docs/spec/items.md §2) without storing it in the payload', () => {
    const tool: JsonObject = {
      ...base,
      itemId: 'c',
      type: 'toolCall',
      status: 'inProgress',
      payload: { toolName: 'bash' },
      updatedAt: 1,
    };
    let view = applyNotification(emptyThreadView('t'), 'item/started', tool);
    view = applyNotification(view, 'item/toolCall/delta', {
      ...tool,
      deltaKind: 'output',
      delta: { kind: 'output', stream: 'stdout', text: 'a\n' },
    });
    view = applyNotification(view, 'item/toolCall/delta', {
      ...tool,
      deltaKind: 'output',
      delta: { kind: 'output', stream: 'stdout', text: 'b\n' },
    });
    expect(view.items.get('c')?.liveOutput).toBe('a\nb\n');
    expect(view.items.get('c')?.payload).toEqual({ toolName: 'bash' });
  });
});
