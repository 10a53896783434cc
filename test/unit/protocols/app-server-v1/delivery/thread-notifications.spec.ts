/**
 * Delivery by ThreadNotifications (docs/spec/protocol.md §7.1, the §3.4 step 3 resume hold) to real
 * connections: each records the lines it was handed.
 */
import { ConnectionRegistry } from '../../../../../src/rpc/connection-registry';
import { Notifier } from '../../../../../src/protocols/app-server-v1/notifier';
import { ThreadNotifications } from '../../../../../src/protocols/app-server-v1/delivery/thread-notifications';
import { ThreadSubscriptions } from '../../../../../src/core/events/thread-subscriptions';
import { Connection } from '../../../../../src/rpc/connection';
import { PACE_PAUSE_AT } from '../../../../../src/protocols/app-server-v1/delivery/reader-pace';

interface Received {
  method: string;
  params: object;
}

function setup() {
  const registry = new ConnectionRegistry();
  const lines = new Map<string, Received[]>();
  const connect = (id: string): Connection => {
    const received: Received[] = [];
    lines.set(id, received);
    const connection = new Connection(id, {
      write: (line) => {
        const message = JSON.parse(line) as { method: string; params: object };
        received.push({ method: message.method, params: message.params });
        return true;
      },
      onDrain: () => undefined,
    });
    connection.state.initialized = true;
    connection.state.readyForNotifications = true;
    registry.add(connection);
    return connection;
  };
  const subscriptions = new ThreadSubscriptions();
  const notifications = new ThreadNotifications(new Notifier(registry), subscriptions, registry);
  const received = (id: string): Received[] => lines.get(id) ?? [];
  return { connect, received, registry, subscriptions, notifications };
}

const status = (n: number) => ({ threadId: 't1', status: `s${n}` });

describe('ThreadNotifications', () => {
  it('broadcasts to the current subscribers only', async () => {
    const { connect, received, subscriptions, notifications } = setup();
    for (const id of ['a', 'b', 'c', 'z']) connect(id);
    subscriptions.subscribe('t1', 'a');
    subscriptions.subscribe('t1', 'b');
    subscriptions.subscribe('t2', 'c');
    await notifications.broadcast('t1', 'turnStarted', { n: 1 });
    // What the core announced to the subscribers, then the requester's own copy unless it is one.
    await notifications.broadcast('t1', 'threadArchived', { n: 2 });
    await notifications.toRequesterUnlessSubscribed('t1', 'a', [
      { kind: 'threadArchived', params: { n: 2 } },
    ]);
    await notifications.broadcast('t1', 'threadArchived', { n: 3 });
    await notifications.toRequesterUnlessSubscribed('t1', 'z', [
      { kind: 'threadArchived', params: { n: 3 } },
    ]);
    const numbers = (id: string) => received(id).map((message) => (message.params as { n: number }).n);
    expect({ a: numbers('a'), b: numbers('b'), c: numbers('c'), z: numbers('z') }).toEqual({
      a: [1, 2, 3],
      b: [1, 2, 3],
      c: [],
      z: [3],
    });
  });

  it("holds a connection's copies until release, then delivers them in order before later ones", async () => {
    const { connect, received, subscriptions, notifications } = setup();
    connect('live');
    connect('resumer');
    subscriptions.subscribe('t1', 'live');
    notifications.hold('t1', 'resumer');
    subscriptions.subscribe('t1', 'resumer');
    await notifications.broadcast('t1', 'threadStatusChanged', status(1));
    await notifications.broadcast('t1', 'threadStatusChanged', status(2));
    expect(received('live').map((m) => m.params)).toEqual([status(1), status(2)]);
    expect(received('resumer')).toEqual([]);

    const released = notifications.release('t1', 'resumer');
    await notifications.broadcast('t1', 'threadStatusChanged', status(3));
    await released;
    expect(received('resumer').map((m) => m.params)).toEqual([status(1), status(2), status(3)]);
    expect(received('live').map((m) => m.params)).toEqual([status(1), status(2), status(3)]);
  });

  it('runs a non-notification send in thread order: now, or after the copies held before it', async () => {
    const { connect, received, subscriptions, notifications } = setup();
    connect('owner');
    const order: string[] = [];
    notifications.inThreadOrder('t1', 'owner', () => order.push('immediate'));
    expect(order).toEqual(['immediate']);

    notifications.hold('t1', 'owner');
    subscriptions.subscribe('t1', 'owner');
    await notifications.broadcast('t1', 'approvalRequested', { n: 1 });
    notifications.inThreadOrder('t1', 'owner', () =>
      order.push(`request after ${received('owner').length} sent`),
    );
    expect(order).toEqual(['immediate']);
    await notifications.release('t1', 'owner');
    expect(order).toEqual(['immediate', 'request after 1 sent']);
    expect(received('owner')).toEqual([{ method: 'approval/requested', params: { n: 1 } }]);
  });

  it('discards a hold, and drops holds and subscriptions of closed connections', async () => {
    const { connect, received, subscriptions, notifications } = setup();
    connect('gone');
    notifications.hold('t1', 'gone');
    subscriptions.subscribe('t1', 'gone');
    await notifications.broadcast('t1', 'turnStarted', { n: 1 });
    notifications.discardHold('t1', 'gone');
    await notifications.release('t1', 'gone');
    expect(received('gone')).toEqual([]);

    const connection = connect('conn_x');
    notifications.hold('t1', 'conn_x');
    subscriptions.subscribe('t1', 'conn_x');
    await notifications.broadcast('t1', 'turnStarted', { n: 2 });
    connection.close();
    expect(subscriptions.subscribers('t1')).toEqual(['gone']);
    await notifications.release('t1', 'conn_x');
    // Only the broadcast itself reached the (no longer held) subscriber; nothing for the closed one.
    expect(received('gone')).toEqual([{ method: 'turn/started', params: { n: 2 } }]);
    expect(received('conn_x')).toEqual([]);
  });

  it('never waits for a connection that stopped reading; the others get everything in order', async () => {
    const { connect, received, registry, subscriptions, notifications } = setup();
    connect('reader');
    const stalled = new Connection('stalled', { write: () => false, onDrain: () => undefined }, 8);
    stalled.state.initialized = true;
    stalled.state.readyForNotifications = true;
    registry.add(stalled);
    subscriptions.subscribe('t1', 'reader');
    subscriptions.subscribe('t1', 'stalled');
    for (let n = 0; n < 5_000; n += 1) await notifications.broadcast('t1', 'agentMessageTextDelta', { n });
    expect(received('reader').map((m) => (m.params as { n: number }).n)).toEqual(
      Array.from({ length: 5_000 }, (_, n) => n),
    );
    // The stalled connection holds at most its queue capacity, as one run of the thread's stream.
    expect(stalled.queuedLines).toBeLessThanOrEqual(8);
    expect(stalled.heldRuns).toBeLessThanOrEqual(2);
    expect(notifications.retainedEvents('t1')).toBe(5_000 - 1);
    stalled.close();
    expect(notifications.retainedEvents('t1')).toBe(0);
  });
});

describe('ThreadNotifications.paced (§1.8: turn forwarding pauses while every reader lags)', () => {
  /** A connection whose sink is full until `drain` is called. */
  function blockable(id: string, registry: ConnectionRegistry) {
    const lines: string[] = [];
    let full = true;
    let drained: (() => void) | null = null;
    const connection = new Connection(id, {
      write: (line) => {
        lines.push(line);
        return !full;
      },
      onDrain: (listener) => (drained = listener),
    });
    connection.state.initialized = true;
    connection.state.readyForNotifications = true;
    registry.add(connection);
    const drain = () => {
      full = false;
      const listener = drained;
      drained = null;
      listener?.();
    };
    return { connection, lines, drain };
  }

  const isSettled = async (promise: Promise<void>): Promise<boolean> => {
    let settled = false;
    void promise.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    return settled;
  };

  /** One subscriber of t1 that stopped reading, with PACE_PAUSE_AT notifications it has not taken. */
  async function onlyReaderLagging(): Promise<{
    slow: ReturnType<typeof blockable>;
    notifications: ReturnType<typeof setup>['notifications'];
  }> {
    const { registry, subscriptions, notifications } = setup();
    const slow = blockable('slow', registry);
    subscriptions.subscribe('t1', 'slow');
    // The first line is handed to the sink (which then reports it full); the rest wait.
    for (let n = 0; n <= PACE_PAUSE_AT; n += 1)
      await notifications.broadcast('t1', 'agentMessageTextDelta', { n });
    return { slow, notifications };
  }

  it('waits while the only reader has PACE_PAUSE_AT left to take, resumes once it caught up, loses nothing', async () => {
    const { slow, notifications } = await onlyReaderLagging();
    expect(await isSettled(notifications.paced('t1'))).toBe(false);
    const waiting = notifications.paced('t1');
    slow.drain();
    expect(await isSettled(waiting)).toBe(true);
    expect(slow.lines.map((line) => (JSON.parse(line) as { params: { n: number } }).params.n)).toEqual(
      Array.from({ length: PACE_PAUSE_AT + 1 }, (_, n) => n),
    );
    expect(await isSettled(notifications.paced('t1'))).toBe(true);
  });

  it('never waits while another reader keeps up, nor for a thread without readers', async () => {
    const { connect, registry, subscriptions, notifications } = setup();
    connect('reader');
    blockable('stalled', registry);
    subscriptions.subscribe('t1', 'reader');
    subscriptions.subscribe('t1', 'stalled');
    for (let n = 0; n < 2 * PACE_PAUSE_AT; n += 1)
      await notifications.broadcast('t1', 'agentMessageTextDelta', { n });
    expect(await isSettled(notifications.paced('t1'))).toBe(true);
    expect(await isSettled(notifications.paced('no-readers'))).toBe(true);
  });

  it('resumes when the lagging reader goes away', async () => {
    const { slow, notifications } = await onlyReaderLagging();
    const waiting = notifications.paced('t1');
    expect(await isSettled(waiting)).toBe(false);
    slow.connection.close();
    expect(await isSettled(waiting)).toBe(true);
  });
});

describe('ThreadSubscriptions', () => {
  it('tracks subscribers and the closed flag; subscribing clears it', () => {
    const { subscriptions } = setup();
    expect(subscriptions.subscribe('t1', 'a')).toBe(true);
    expect(subscriptions.subscribe('t1', 'a')).toBe(false);
    subscriptions.markClosed('t1');
    expect(subscriptions.isClosed('t1')).toBe(true);
    subscriptions.subscribe('t1', 'b');
    expect(subscriptions.isClosed('t1')).toBe(false);
    subscriptions.unsubscribe('t1', 'a');
    subscriptions.unsubscribe('t1', 'not-there');
    expect(subscriptions.subscribers('t1')).toEqual(['b']);
    subscriptions.unsubscribe('t1', 'b');
    expect(subscriptions.hasSubscribers('t1')).toBe(false);
  });
});
