/** The client's FIFO backlog (docs/spec/protocol.md §13): order kept, matches removed, timeouts and end. */
import { MessageBacklog } from '../../../src/client/message-backlog';

describe('MessageBacklog', () => {
  it('returns messages in arrival order', async () => {
    const backlog = new MessageBacklog<number>();
    backlog.push(1);
    backlog.push(2);
    expect(await backlog.take(() => true, 10)).toEqual({ kind: 'message', message: 1 });
    expect(await backlog.take(() => true, 10)).toEqual({ kind: 'message', message: 2 });
  });

  it('removes the first match and keeps earlier non-matches in place', async () => {
    const backlog = new MessageBacklog<number>();
    [1, 2, 3, 4].forEach((n) => backlog.push(n));
    expect(await backlog.take((n) => n % 2 === 0, 10)).toEqual({ kind: 'message', message: 2 });
    expect(backlog.size).toBe(3);
    expect(await backlog.take(() => true, 10)).toEqual({ kind: 'message', message: 1 });
    expect(await backlog.take(() => true, 10)).toEqual({ kind: 'message', message: 3 });
  });

  it('waits for a later arrival that matches; non-matches arriving meanwhile stay queued', async () => {
    const backlog = new MessageBacklog<string>();
    const waiting = backlog.take((m) => m === 'wanted', 1_000);
    backlog.push('other');
    setTimeout(() => backlog.push('wanted'), 5);
    expect(await waiting).toEqual({ kind: 'message', message: 'wanted' });
    expect(await backlog.take(() => true, 10)).toEqual({ kind: 'message', message: 'other' });
  });

  it('times out when nothing matches', async () => {
    const backlog = new MessageBacklog<number>();
    backlog.push(1);
    expect(await backlog.take((n) => n > 1, 20)).toEqual({ kind: 'timeout' });
    expect(backlog.size).toBe(1);
  });

  it('after end(): drains what is queued, then reports ended at once', async () => {
    const backlog = new MessageBacklog<number>();
    backlog.push(7);
    const waiting = backlog.take((n) => n === 8, 10_000);
    backlog.end();
    expect(await waiting).toEqual({ kind: 'ended' });
    expect(await backlog.take(() => true, 10_000)).toEqual({ kind: 'message', message: 7 });
    expect(await backlog.take(() => true, 10_000)).toEqual({ kind: 'ended' });
  });

  it('discard() drops everything', async () => {
    const backlog = new MessageBacklog<number>();
    backlog.push(1);
    backlog.discard();
    expect(await backlog.take(() => true, 10_000)).toEqual({ kind: 'ended' });
  });
});
