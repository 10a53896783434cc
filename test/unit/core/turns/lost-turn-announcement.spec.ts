/**
 * announceLostTurns (docs/spec/postgres.md §2 instance loss) against in-memory fakes of its ports:
 * the domain events a recovered turn's subscribers get, by kind, in order.
 */
import type { ThreadEventBus, ThreadEventKind } from '../../../../src/core/events/thread-event-bus';
import type { ThreadStore } from '../../../../src/core/store/thread-store';
import { announceLostTurns } from '../../../../src/core/turns/lost-turn-announcement';

class RecordingBus implements Pick<ThreadEventBus, 'broadcast'> {
  readonly events: Array<{ threadId: string; kind: ThreadEventKind; params: object }> = [];

  broadcast(threadId: string, kind: ThreadEventKind, params: object): Promise<void> {
    this.events.push({ threadId, kind, params });
    return Promise.resolve();
  }
}

function storeWith(archivedAt: number | null, items: object[]): ThreadStore {
  const snapshot = {
    thread: { threadId: 'thread_1', archivedAt },
    turns: [{ turnId: 'turn_1', runId: 'run_1' }],
    items: { versions: items.map((item) => ({ item })) },
  };
  return { readThread: () => Promise.resolve(snapshot) } as unknown as ThreadStore;
}

const message = {
  itemId: 'item_m',
  threadId: 'thread_1',
  turnId: 'turn_1',
  type: 'agentMessage',
  status: 'interrupted',
  payload: { text: '' },
};

describe('announceLostTurns', () => {
  it('closes the interrupted items with their streamed text, then idles the thread and ends the turn', async () => {
    const bus = new RecordingBus();
    await announceLostTurns(
      storeWith(null, [message]),
      bus as unknown as ThreadEventBus,
      [{ threadId: 'thread_1', turnId: 'turn_1', interruptedItemIds: ['item_m'] }],
      'instance lost',
      (itemId) => (itemId === 'item_m' ? 'Hello' : undefined),
    );
    expect(bus.events.map((event) => event.kind)).toEqual([
      'itemCompleted',
      'threadStatusChanged',
      'turnCompleted',
    ]);
    expect(bus.events[0].params).toEqual({ ...message, payload: { text: 'Hello' } });
    expect(bus.events[1].params).toEqual({ threadId: 'thread_1', status: 'idle' });
    expect(bus.events[2].params).toMatchObject({
      threadId: 'thread_1',
      turnId: 'turn_1',
      runId: 'run_1',
      status: 'interrupted',
      error: 'instance lost',
    });
  });

  it('leaves an archived thread archived: only the turn ends', async () => {
    const bus = new RecordingBus();
    await announceLostTurns(
      storeWith(5, []),
      bus as unknown as ThreadEventBus,
      [{ threadId: 'thread_1', turnId: 'turn_1' }],
      'instance lost',
    );
    expect(bus.events.map((event) => event.kind)).toEqual(['turnCompleted']);
  });
});
