/**
 * RemoteMessageTexts (docs/spec/postgres.md §2 instance loss): the text of another instance's streaming
 * agentMessage as relayed here — item/started's text plus every delta since — forgotten at the
 * item's completion or its turn's end.
 */
import type { RelayedThreadEvent } from '../../../../src/core/events/thread-event-relay';
import { RemoteMessageTexts } from '../../../../src/persistence/postgres/cluster/remote-message-texts';

const message = { itemId: 'item_m', threadId: 'thread_t', turnId: 'turn_1', type: 'agentMessage' };
const event = (name: RelayedThreadEvent['kind'], params: object): RelayedThreadEvent => ({
  threadId: 'thread_t',
  kind: name,
  params,
});

describe('RemoteMessageTexts', () => {
  it('joins the started text and the deltas; forgets the item at item/completed', () => {
    const texts = new RemoteMessageTexts();
    texts.observe(event('itemStarted', { ...message, status: 'inProgress', payload: { text: '' } }));
    texts.observe(event('agentMessageTextDelta', { ...message, status: 'inProgress', delta: 'Hel' }));
    texts.observe(event('agentMessageTextDelta', { ...message, status: 'inProgress', delta: 'lo' }));
    expect(texts.textOf('item_m')).toBe('Hello');
    texts.observe(event('agentMessageTextDelta', { ...message, status: 'inProgress', delta: '!' }));
    expect(texts.textOf('item_m')).toBe('Hello!');
    texts.observe(event('itemCompleted', { ...message, status: 'completed', payload: { text: 'Hello!' } }));
    expect(texts.textOf('item_m')).toBeUndefined();
  });

  it("forgets a turn's messages at its turn/completed, and ignores other items and unknown deltas", () => {
    const texts = new RemoteMessageTexts();
    texts.observe(event('itemStarted', { ...message, status: 'inProgress', payload: { text: 'a' } }));
    texts.observe(
      event('itemStarted', { ...message, itemId: 'item_tool', type: 'toolCall', status: 'inProgress' }),
    );
    texts.observe(event('agentMessageTextDelta', { ...message, itemId: 'item_unseen', delta: 'x' }));
    expect(texts.textOf('item_tool')).toBeUndefined();
    expect(texts.textOf('item_unseen')).toBeUndefined();
    texts.observe(event('turnCompleted', { threadId: 'thread_t', turnId: 'turn_1', status: 'completed' }));
    expect(texts.textOf('item_m')).toBeUndefined();
  });
});
