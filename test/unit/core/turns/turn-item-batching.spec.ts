/**
 * Batched item persistence (docs/spec/protocol.md §8.5, §8.11): item states of events forwarded together
 * are written in one transaction, and every item/started and item/completed goes out only after
 * the state it carries is committed, in the order the run produced them.
 */
import { TypeOrmAppServerStore } from '../../../../src/persistence/typeorm/app-server-store';
import type { ItemVersion } from '../../../../src/core/store/records';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../../../../src/core/events/thread-event-bus';
import { finish } from '../../../../src/runtime/model/scripted-model';
import { gatedStep, LiveAppServer, runTurn, text, type WireMessage } from '../../support/live-app-server';

const PARALLEL_TOOLS = 8;

interface CommittedWrite {
  /** How many messages the client had received when the write committed. */
  deliveredBefore: number;
  /** The item states written, serialized when the write was asked for. */
  items: string[];
}

describe('batched item persistence', () => {
  let live: LiveAppServer;

  afterEach(async () => {
    await live?.close();
  });

  it('commits every item state before its notification and batches item states of one burst', async () => {
    const toolCalls = Array.from({ length: PARALLEL_TOOLS }, (_, index) => ({
      id: `call_${index}`,
      name: 'file_info',
      arguments: { path: '.' },
    }));
    live = await LiveAppServer.start({
      steps: [{ content: 'looking', tool_calls: toolCalls }, finish('done')],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const store = live.server.app.get(TypeOrmAppServerStore);
    const writes: CommittedWrite[] = [];
    const record = (versions: readonly ItemVersion[]) => {
      const items = versions.map((version) => JSON.stringify(version.item));
      return () => {
        writes.push({ deliveredBefore: client.messages.length, items });
      };
    };
    const { upsert, upsertMany } = store.items;
    store.items.upsert = (version) => upsert.call(store.items, version).then(record([version]));
    store.items.upsertMany = (versions) => upsertMany.call(store.items, versions).then(record(versions));

    const { from, completed } = await runTurn(client, threadId, text('inspect in parallel'));
    expect(completed.params).toMatchObject({ status: 'completed' });

    const itemNotifications = client.messages
      .map((message, index) => ({ message, index }))
      .filter(({ message, index }) => index >= from && isItemState(message));
    expect(itemNotifications.length).toBeGreaterThan(PARALLEL_TOOLS);
    for (const [position, { message, index }] of itemNotifications.entries()) {
      const item = message.params as { itemId: string };
      // This state, or a later one of the same item (states coalesced in one write, the latest
      // winning), committed before the notification was delivered.
      const sameOrLater = itemNotifications
        .slice(position)
        .filter((later) => (later.message.params as { itemId: string }).itemId === item.itemId)
        .map((later) => JSON.stringify(later.message.params));
      const stored = writes.find(
        (write) => write.deliveredBefore <= index && write.items.some((state) => sameOrLater.includes(state)),
      );
      expect({ method: message.method, item, stored: stored !== undefined }).toEqual({
        method: message.method,
        item,
        stored: true,
      });
    }
    // The parallel tool calls' states were not written one transaction each.
    expect(writes.some((write) => write.items.length > 1)).toBe(true);
    expect(writes.length).toBeLessThan(itemNotifications.length);

    // Replay equals the last notification of every item, in order of first appearance.
    const read = await client.call<{ items: Array<{ itemId: string; turnId: string }> }>('thread/read', {
      threadId,
    });
    const last = new Map<string, unknown>();
    for (const { message } of itemNotifications) {
      last.set((message.params as { itemId: string }).itemId, message.params);
    }
    const turnItems = read.items.filter((item) => last.has(item.itemId));
    expect(turnItems).toEqual([...last.values()]);
  });

  it("writes a message's item/started in the commit of the events before its first delta", async () => {
    // turn/started goes out only once the run reached its second model call, so the run has
    // journaled its start, the first message's deltas and its tool call before forwarding (which
    // starts after that broadcast) takes its first batch. (The run starts after the begin-turn
    // write, so holding that write would hold the run too.)
    const second = gatedStep(finish('done'));
    live = await LiveAppServer.start({
      steps: [
        { content: 'looking', tool_calls: [{ id: 'call_0', name: 'file_info', arguments: { path: '.' } }] },
        second.step,
      ],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const store = live.server.app.get(TypeOrmAppServerStore);
    const writes: Array<Array<{ type: string; status: string; text?: unknown }>> = [];
    const record = (versions: readonly ItemVersion[]) => () => {
      writes.push(
        versions.map(({ item }) => ({ type: item.type, status: item.status, text: item.payload.text })),
      );
    };
    const { upsert, upsertMany } = store.items;
    store.items.upsert = (version) => upsert.call(store.items, version).then(record([version]));
    store.items.upsertMany = (versions) => upsertMany.call(store.items, versions).then(record(versions));
    const events = live.server.app.get<ThreadEventBus>(THREAD_EVENT_BUS);
    const broadcast = events.broadcast.bind(events);
    events.broadcast = async (threadId, kind, params, detail) => {
      if (kind === 'turnStarted') {
        await second.gate.reached;
        second.gate.open();
      }
      return broadcast(threadId, kind, params, detail);
    };

    const { from, completed } = await runTurn(client, threadId, text('look around'));
    expect(completed.params).toMatchObject({ status: 'completed' });

    // Nothing committed between the userMessage and the first message's item/started…
    expect(writes[0]).toEqual(
      expect.arrayContaining([
        { type: 'userMessage', status: 'completed', text: 'look around' },
        { type: 'agentMessage', status: 'inProgress', text: '' },
      ]),
    );
    // …and the client still heard them in the run's order, the chunk after its item/started.
    const methods = client.messages
      .slice(from)
      .filter((message) => message.method?.startsWith('item/'))
      .map((message) => `${message.method} ${(message.params as { type: string }).type}`);
    expect(methods.slice(0, 3)).toEqual([
      'item/completed userMessage',
      'item/started agentMessage',
      'item/agentMessage/delta agentMessage',
    ]);
  });
});

function isItemState(message: WireMessage): boolean {
  return message.method === 'item/started' || message.method === 'item/completed';
}
