import { Connection } from '../../../src/rpc/connection';
import type { MessageSink } from '../../../src/rpc/message-sink';

/** A sink that accepts `budget` writes before asking to wait for drain. */
class ThrottledSink implements MessageSink {
  readonly lines: string[] = [];
  private drainCallbacks: Array<() => void> = [];
  writesWhileBlocked = 0;
  private blocked = false;

  constructor(private budget: number) {}

  write(line: string): boolean {
    if (this.blocked) this.writesWhileBlocked += 1;
    this.lines.push(line);
    this.budget -= 1;
    if (this.budget <= 0) this.blocked = true;
    return !this.blocked;
  }

  onDrain(callback: () => void): void {
    this.drainCallbacks.push(callback);
  }

  drain(budget: number): void {
    this.budget = budget;
    this.blocked = false;
    const callbacks = this.drainCallbacks.splice(0);
    for (const callback of callbacks) callback();
  }

  get pendingDrainCallbacks(): number {
    return this.drainCallbacks.length;
  }
}

const messages = (sink: ThrottledSink): unknown[] => sink.lines.map((line) => JSON.parse(line));

describe('Connection outbound queue', () => {
  it('writes each message as one compact JSON line terminated by \\n, raw UTF-8', async () => {
    const sink = new ThrottledSink(100);
    const connection = new Connection('c1', sink);
    await connection.send({ jsonrpc: '2.0', method: 'x', params: { text: 'héllo\nworld' } });
    expect(sink.lines).toEqual(['{"jsonrpc":"2.0","method":"x","params":{"text":"héllo\\nworld"}}\n']);
  });

  it('never writes while the sink waits for drain, and resumes in order on drain', async () => {
    const sink = new ThrottledSink(2);
    const connection = new Connection('c1', sink);
    for (let n = 1; n <= 5; n += 1) await connection.send({ n });
    expect(messages(sink)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(connection.queuedLines).toBe(3);
    sink.drain(2);
    expect(messages(sink)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    sink.drain(10);
    expect(messages(sink)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(sink.writesWhileBlocked).toBe(0);
    expect(sink.pendingDrainCallbacks).toBe(0);
  });

  it('makes producers wait for space when the queue is full; nothing is dropped or reordered', async () => {
    const sink = new ThrottledSink(1);
    const connection = new Connection('c1', sink, 3);
    const admitted: number[] = [];
    const sends = [1, 2, 3, 4, 5, 6].map((n) => connection.send({ n }).then(() => admitted.push(n)));
    await Promise.resolve();
    // 1 written (sink now blocked), 2-4 fill the queue of 3, 5-6 wait.
    expect(admitted).toEqual([1, 2, 3, 4]);
    expect(connection.queuedLines).toBe(3);
    sink.drain(1);
    await Promise.resolve();
    expect(admitted).toEqual([1, 2, 3, 4, 5]);
    sink.drain(100);
    await Promise.all(sends);
    expect(messages(sink)).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ n })));
  });

  it('does not let a later send overtake producers already waiting for space', async () => {
    const sink = new ThrottledSink(1);
    const connection = new Connection('c1', sink, 1);
    void connection.send({ n: 1 });
    void connection.send({ n: 2 });
    void connection.send({ n: 3 });
    sink.drain(1);
    void connection.send({ n: 4 });
    sink.drain(100);
    await connection.whenFlushed();
    expect(messages(sink)).toEqual([1, 2, 3, 4].map((n) => ({ n })));
  });

  it('whenFlushed resolves once everything has been handed to the sink', async () => {
    const sink = new ThrottledSink(1);
    const connection = new Connection('c1', sink);
    void connection.send({ n: 1 });
    void connection.send({ n: 2 });
    let flushed = false;
    const flushing = connection.whenFlushed().then(() => (flushed = true));
    await Promise.resolve();
    expect(flushed).toBe(false);
    sink.drain(10);
    await flushing;
    expect(messages(sink)).toHaveLength(2);
  });

  it('throws synchronously for a message that cannot be serialized', () => {
    const connection = new Connection('c1', new ThrottledSink(10));
    expect(() => connection.send({ n: BigInt(1) })).toThrow();
  });

  it('stops writing and releases producers once the output is broken', async () => {
    const sink = new ThrottledSink(1);
    const connection = new Connection('c1', sink, 1);
    void connection.send({ n: 1 });
    void connection.send({ n: 2 });
    const waiting = connection.send({ n: 3 });
    connection.markOutputBroken();
    await waiting;
    sink.drain(10);
    await connection.send({ n: 4 });
    expect(messages(sink)).toEqual([{ n: 1 }]);
  });

  it('treats a throwing sink like a broken output', async () => {
    const connection = new Connection('c1', {
      write: () => {
        throw new Error('EPIPE');
      },
      onDrain: () => undefined,
    });
    await expect(connection.send({ n: 1 })).resolves.toBeUndefined();
    await expect(connection.whenFlushed()).resolves.toBeUndefined();
  });
});

describe('Connection lifecycle and server requests', () => {
  it('starts uninitialized and not ready, with an empty opt-out set', () => {
    const connection = new Connection('c1', new ThrottledSink(10));
    expect(connection.state).toEqual({
      initialized: false,
      readyForNotifications: false,
      clientInfo: null,
      experimentalApi: false,
      optOutNotificationMethods: new Set(),
    });
  });

  it('settles a pending server request with the first answer only', async () => {
    const connection = new Connection('c1', new ThrottledSink(10));
    const outcome = connection.expectAnswer('approval_1');
    expect(
      connection.settleServerRequest('approval_1', { kind: 'result', result: { decision: 'allow' } }),
    ).toBe(true);
    expect(
      connection.settleServerRequest('approval_1', { kind: 'result', result: { decision: 'deny' } }),
    ).toBe(false);
    await expect(outcome).resolves.toEqual({ kind: 'result', result: { decision: 'allow' } });
  });

  it('ignores answers for unknown ids', () => {
    const connection = new Connection('c1', new ThrottledSink(10));
    expect(connection.settleServerRequest('nope', { kind: 'result', result: null })).toBe(false);
  });

  it('on close settles pending server requests as closed, then runs close listeners once', async () => {
    const connection = new Connection('c1', new ThrottledSink(10));
    const outcome = connection.expectAnswer('approval_1');
    const closed: string[] = [];
    connection.onClose((c) => closed.push(c.id));
    const unregister = connection.onClose(() => closed.push('unregistered'));
    unregister();
    connection.close();
    connection.close();
    await expect(outcome).resolves.toEqual({ kind: 'closed' });
    expect(closed).toEqual(['c1']);
    expect(connection.isClosed).toBe(true);
    await expect(connection.expectAnswer('later')).resolves.toEqual({ kind: 'closed' });
  });

  it('discards messages sent after close', async () => {
    const sink = new ThrottledSink(10);
    const connection = new Connection('c1', sink);
    connection.close();
    await connection.send({ n: 1 });
    expect(sink.lines).toEqual([]);
  });
});
