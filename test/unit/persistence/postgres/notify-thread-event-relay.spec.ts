/**
 * postgres.md §2: relayed events carry per-thread sequence numbers; a receiver that sees one
 * skipped re-reads the running turn's item states from the store and delivers them before the
 * event, so a lost NOTIFY never loses an item. The channel here is an in-memory stand-in for the
 * NOTIFY connection; the store is a real one.
 */
import type {
  ClusterChannel,
  ClusterMessage,
} from '../../../../src/persistence/postgres/cluster/cluster-channel';
import { NotifyThreadEventRelay } from '../../../../src/persistence/postgres/cluster/notify-thread-event-relay';
import type { RelayedThreadEvent } from '../../../../src/core/events/thread-event-relay';
import { createStoreDriver } from '../../../support/store-drivers';
import { agentMessage, version } from '../store-test-support';

class ChannelStandIn {
  readonly instanceId = 'instance_b';
  readonly sent: Array<Omit<ClusterMessage, 'from'>> = [];
  private handler: ((message: ClusterMessage) => void) | undefined;

  onMessage(handler: (message: ClusterMessage) => void): void {
    this.handler = handler;
  }

  send(message: Omit<ClusterMessage, 'from'>): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }

  deliver(message: ClusterMessage): void {
    this.handler?.(message);
  }
}

describe('NotifyThreadEventRelay', () => {
  const driver = createStoreDriver('sqlite');
  afterAll(() => driver.dispose());

  it('numbers its own events per thread', () => {
    const channel = new ChannelStandIn();
    const relay = new NotifyThreadEventRelay(channel as unknown as ClusterChannel, {} as never);
    relay.publish({ threadId: 't1', name: 'turn/started', params: {} });
    relay.publish({ threadId: 't2', name: 'turn/started', params: {} });
    relay.publish({ threadId: 't1', name: 'turn/completed', params: {} });
    expect(channel.sent.map((m) => [m.threadId, m.seq])).toEqual([
      ['t1', 1],
      ['t2', 1],
      ['t1', 2],
    ]);
  });

  it("carries an event's detail (a never-run call's planned arguments) to the other instances", async () => {
    const sender = new ChannelStandIn();
    new NotifyThreadEventRelay(sender as unknown as ClusterChannel, {} as never).publish({
      threadId: 't1',
      name: 'item/completed',
      params: { itemId: 'i1' },
      detail: { plannedArguments: { path: 'a.txt' } },
    });
    const receiver = new ChannelStandIn();
    const relay = new NotifyThreadEventRelay(receiver as unknown as ClusterChannel, {} as never);
    const received: RelayedThreadEvent[] = [];
    relay.onRemoteEvent((event) => received.push(event));
    // Through JSON, as NOTIFY carries it.
    receiver.deliver(JSON.parse(JSON.stringify({ ...sender.sent[0], from: 'instance_a' })) as ClusterMessage);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      {
        threadId: 't1',
        name: 'item/completed',
        params: { itemId: 'i1' },
        detail: { plannedArguments: { path: 'a.txt' } },
        mark: { origin: 'instance_a', seq: 1 },
      },
    ]);
  });

  it('on a skipped sequence number delivers the stored item states first, then the event', async () => {
    const store = await driver.open(await driver.newLocation());
    try {
      await store.threads.create({ threadId: 'thread_g', agentKey: 'a', cwd: null, metadata: {}, now: 1 });
      await store.beginTurn({
        turnId: 'turn_g',
        threadId: 'thread_g',
        runId: 'run_g',
        input: [],
        startedAt: 2,
      });
      const done = agentMessage('item_done', 'thread_g', 'turn_g', 'finished');
      const open = agentMessage('item_open', 'thread_g', 'turn_g', 'so far', 'inProgress');
      await store.items.upsert(version(done, 1));
      await store.items.upsert(version(open, 2));

      const channel = new ChannelStandIn();
      const relay = new NotifyThreadEventRelay(channel as unknown as ClusterChannel, store);
      const received: RelayedThreadEvent[] = [];
      relay.onRemoteEvent((event) => received.push(event));
      const event = (seq: number, name: string) =>
        ({
          from: 'instance_a',
          kind: 'threadEvent',
          threadId: 'thread_g',
          seq,
          name,
          params: { seq },
        }) as ClusterMessage;
      channel.deliver(event(1, 'turn/started'));
      channel.deliver(event(4, 'item/agentMessage/delta'));
      channel.deliver(event(5, 'item/agentMessage/delta'));
      // Our own echo is never delivered by the channel; another sender's numbering is its own.
      channel.deliver({ ...event(1, 'error/warning'), from: 'instance_c' });
      // The repair reads the store on sqlite3's thread pool first; all six arrive behind it.
      for (const deadline = Date.now() + 5_000; received.length < 6 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));

      expect(
        received.map((e) => [e.name, (e.params as { itemId?: string; seq?: number }).itemId ?? e.params]),
      ).toEqual([
        ['turn/started', { seq: 1 }],
        ['item/completed', 'item_done'],
        ['item/started', 'item_open'],
        ['item/agentMessage/delta', { seq: 4 }],
        ['item/agentMessage/delta', { seq: 5 }],
        ['error/warning', { seq: 1 }],
      ]);
      expect(relay.gaps).toBe(1);
    } finally {
      await store.close();
    }
  });
});
