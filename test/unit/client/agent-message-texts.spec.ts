import { AgentMessageTexts } from '../../../src/client/agent-message-texts';
import type { AppItem, ServerMessage } from '../../../src/client/client-types';

const base = { threadId: 'thread_1', turnId: 'turn_1', createdAt: 1, updatedAt: 1 };
const agentMessage = (itemId: string, status: AppItem['status'], text: string): AppItem => ({
  ...base,
  itemId,
  type: 'agentMessage',
  status,
  payload: { text },
});
const notification = (method: string, params: object) =>
  ({ jsonrpc: '2.0', method, params }) as unknown as ServerMessage;
const delta = (itemId: string, chunk: string) =>
  notification('item/agentMessage/delta', {
    ...agentMessage(itemId, 'inProgress', chunk),
    delta: chunk,
  });

describe('AgentMessageTexts (§4.8 v1.1: a delta carries only its chunk)', () => {
  it('appends each chunk to the text of item/started', () => {
    const texts = new AgentMessageTexts();
    texts.apply(notification('item/started', agentMessage('a', 'inProgress', '')));
    texts.apply(delta('a', 'Hello'));
    expect(texts.text('a')).toBe('Hello');
    texts.apply(delta('a', ', '));
    texts.apply(delta('a', 'world'));
    expect(texts.text('a')).toBe('Hello, world');
  });

  it('continues from a replayed in-progress item and takes the completed text as final', () => {
    const texts = new AgentMessageTexts();
    texts.applyItems([
      agentMessage('a', 'inProgress', 'So far'),
      { ...agentMessage('u', 'completed', 'x'), type: 'userMessage' },
    ]);
    texts.apply(delta('a', ' more'));
    expect(texts.text('a')).toBe('So far more');
    texts.apply(notification('item/completed', agentMessage('a', 'completed', 'So far more!')));
    expect(texts.text('a')).toBe('So far more!');
    expect(texts.text('u')).toBeUndefined();
  });

  it('keeps items apart, ignores other messages and forgets on delete', () => {
    const texts = new AgentMessageTexts();
    texts.apply(delta('a', 'one'));
    texts.apply(delta('b', 'two'));
    texts.apply(notification('turn/started', { threadId: 'thread_1', turnId: 'turn_1' }));
    texts.apply({ jsonrpc: '2.0', id: 1, result: {} } as unknown as ServerMessage);
    expect([texts.text('a'), texts.text('b')]).toEqual(['one', 'two']);
    texts.delete('a');
    expect(texts.text('a')).toBeUndefined();
  });
});
