import { ConnectionRegistry } from '../../../../src/rpc/connection-registry';
import { Notifier } from '../../../../src/protocols/app-server-v1/notifier';
import { Connection } from '../../../../src/rpc/connection';
import { RecordingSink } from '../../support/in-process-core';

function setup() {
  const registry = new ConnectionRegistry();
  const notifier = new Notifier(registry);
  const open = (id: string, ready = true, optOut: string[] = []) => {
    const sink = new RecordingSink();
    const connection = new Connection(id, sink);
    connection.state.initialized = ready;
    connection.state.readyForNotifications = ready;
    connection.state.optOutNotificationMethods = new Set(optOut);
    registry.add(connection);
    return { connection, sink };
  };
  return { registry, notifier, open };
}

describe('Notifier.notify (§7.4)', () => {
  it('sends to each ready connection once, skipping unknown ids', async () => {
    const { notifier, open } = setup();
    const a = open('a');
    const b = open('b');
    await notifier.notify(['a', 'b', 'a', 'missing'], 'thread/archived', { threadId: 't', archived: true });
    const expected = [
      { jsonrpc: '2.0', method: 'thread/archived', params: { threadId: 't', archived: true } },
    ];
    expect(a.sink.messages).toEqual(expected);
    expect(b.sink.messages).toEqual(expected);
  });

  it('does not deliver to a connection that is not ready for notifications', async () => {
    const { notifier, open } = setup();
    const a = open('a', false);
    await notifier.notify(['a'], 'turn/started', { threadId: 't', turnId: 'u' });
    expect(a.sink.lines).toEqual([]);
  });

  it('suppresses exactly the opted-out methods (case-sensitive)', async () => {
    const { notifier, open } = setup();
    const a = open('a', true, ['item/agentMessage/delta', 'THREAD/STARTED']);
    await notifier.notify(['a'], 'item/agentMessage/delta', { delta: 'x' });
    await notifier.notify(['a'], 'thread/started', { threadId: 't' });
    expect(a.sink.messages.map((m) => m.method)).toEqual(['thread/started']);
  });

  it('skips closed connections', async () => {
    const { notifier, open } = setup();
    const a = open('a');
    a.connection.close();
    await notifier.notify(['a'], 'thread/closed', { threadId: 't' });
    expect(a.sink.lines).toEqual([]);
  });
});

describe('Notifier.request / withdraw', () => {
  it('sends server requests unfiltered (opt-out and readiness do not apply)', async () => {
    const { notifier, open } = setup();
    const a = open('a', false, ['approval/request']);
    void notifier.request('a', 'approval/request', { requestId: 'approval_1' }, 'approval_1');
    expect(a.sink.messages).toEqual([
      { jsonrpc: '2.0', id: 'approval_1', method: 'approval/request', params: { requestId: 'approval_1' } },
    ]);
  });

  it('settles as withdrawn; a later answer is ignored', async () => {
    const { notifier, open } = setup();
    const a = open('a');
    const outcome = notifier.request('a', 'approval/request', {}, 'approval_1');
    expect(notifier.withdraw('a', 'approval_1')).toBe(true);
    expect(notifier.withdraw('a', 'approval_1')).toBe(false);
    expect(a.connection.settleServerRequest('approval_1', { kind: 'result', result: {} })).toBe(false);
    await expect(outcome).resolves.toEqual({ kind: 'withdrawn' });
  });

  it('settles as closed for an unknown connection or when the connection closes', async () => {
    const { notifier, open, registry } = setup();
    await expect(notifier.request('nobody', 'approval/request', {}, 'x')).resolves.toEqual({
      kind: 'closed',
    });
    const a = open('a');
    const outcome = notifier.request('a', 'approval/request', {}, 'approval_1');
    a.connection.close();
    await expect(outcome).resolves.toEqual({ kind: 'closed' });
    expect(registry.get('a')).toBeUndefined();
  });
});
