/** The resume hold of ThreadNotifications (protocol.md §3.4 step 3) against a recording notifier. */
import { ConnectionRegistry } from '../../../../src/rpc/connection-registry';
import type { Notifier } from '../../../../src/protocols/app-server-v1/notifier';
import type { ServerNotificationMethod } from '../../../../src/protocols/app-server-v1/registry';
import { ThreadNotifications } from '../../../../src/core/threads/thread-notifications';
import { ThreadSubscriptions } from '../../../../src/core/threads/thread-subscriptions';
import { Connection } from '../../../../src/rpc/connection';

interface Sent {
  to: string[];
  method: ServerNotificationMethod;
  params: object;
}

function setup() {
  const sent: Sent[] = [];
  const notifier = {
    notify: (ids: Iterable<string>, method: ServerNotificationMethod, params: object) => {
      sent.push({ to: [...ids], method, params });
      return Promise.resolve();
    },
  } as unknown as Notifier;
  const registry = new ConnectionRegistry();
  const subscriptions = new ThreadSubscriptions(registry);
  const notifications = new ThreadNotifications(notifier, subscriptions, registry);
  return { sent, registry, subscriptions, notifications };
}

const status = (n: number) => ({ threadId: 't1', status: `s${n}` });

describe('ThreadNotifications', () => {
  it('broadcasts to the current subscribers only', async () => {
    const { sent, subscriptions, notifications } = setup();
    subscriptions.subscribe('t1', 'a');
    subscriptions.subscribe('t1', 'b');
    subscriptions.subscribe('t2', 'c');
    await notifications.broadcast('t1', 'turn/started', { n: 1 });
    await notifications.toRequesterAndSubscribers('t1', 'a', 'thread/archived', { n: 2 });
    await notifications.toRequesterAndSubscribers('t1', 'z', 'thread/archived', { n: 3 });
    expect(sent.map((s) => s.to)).toEqual([
      ['a', 'b'],
      ['a', 'b'],
      ['z', 'a', 'b'],
    ]);
  });

  it("holds a connection's copies until release, then delivers them in order before later ones", async () => {
    const { sent, subscriptions, notifications } = setup();
    subscriptions.subscribe('t1', 'live');
    notifications.hold('t1', 'resumer');
    subscriptions.subscribe('t1', 'resumer');
    await notifications.broadcast('t1', 'thread/status/changed', status(1));
    await notifications.broadcast('t1', 'thread/status/changed', status(2));
    expect(sent).toEqual([
      { to: ['live'], method: 'thread/status/changed', params: status(1) },
      { to: ['live'], method: 'thread/status/changed', params: status(2) },
    ]);

    const released = notifications.release('t1', 'resumer');
    await notifications.broadcast('t1', 'thread/status/changed', status(3));
    await released;
    expect(sent.slice(2)).toEqual([
      { to: ['resumer'], method: 'thread/status/changed', params: status(1) },
      { to: ['resumer'], method: 'thread/status/changed', params: status(2) },
      { to: ['live', 'resumer'], method: 'thread/status/changed', params: status(3) },
    ]);
  });

  it('runs a non-notification send in thread order: now, or after the copies held before it', async () => {
    const { sent, subscriptions, notifications } = setup();
    const order: string[] = [];
    notifications.inThreadOrder('t1', 'owner', () => order.push('immediate'));
    expect(order).toEqual(['immediate']);

    notifications.hold('t1', 'owner');
    subscriptions.subscribe('t1', 'owner');
    await notifications.broadcast('t1', 'approval/requested', { n: 1 });
    notifications.inThreadOrder('t1', 'owner', () => order.push(`request after ${sent.length} sent`));
    expect(order).toEqual(['immediate']);
    await notifications.release('t1', 'owner');
    expect(order).toEqual(['immediate', 'request after 1 sent']);
    expect(sent).toEqual([{ to: ['owner'], method: 'approval/requested', params: { n: 1 } }]);
  });

  it('discards a hold, and drops holds and subscriptions of closed connections', async () => {
    const { sent, registry, subscriptions, notifications } = setup();
    notifications.hold('t1', 'gone');
    subscriptions.subscribe('t1', 'gone');
    await notifications.broadcast('t1', 'turn/started', { n: 1 });
    notifications.discardHold('t1', 'gone');
    await notifications.release('t1', 'gone');
    expect(sent).toEqual([]);

    const connection = new Connection('conn_x', { write: () => true, onDrain: () => undefined });
    registry.add(connection);
    notifications.hold('t1', 'conn_x');
    subscriptions.subscribe('t1', 'conn_x');
    await notifications.broadcast('t1', 'turn/started', { n: 2 });
    connection.close();
    expect(subscriptions.subscribers('t1')).toEqual(['gone']);
    await notifications.release('t1', 'conn_x');
    // Only the broadcast itself reached the (no longer held) subscriber; nothing for the closed one.
    expect(sent.map((s) => s.to)).toEqual([['gone']]);
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
