/**
 * docs/spec/postgres.md §2 instance loss, the lost instance's side: InstanceHeartbeat is its InstanceLease.
 * Within LEASE_MS of a confirmed beat its turns go on without waiting; past it (a pause, the
 * database away) they wait for the next beat, which first stops the turns another instance
 * recovered. The channel is an in-memory stand-in that answers the heartbeat's statements.
 */
import type { ClusterChannel } from '../../../../src/persistence/postgres/cluster/cluster-channel';
import {
  HEARTBEAT_INTERVAL_MS,
  InstanceHeartbeat,
  LEASE_MS,
} from '../../../../src/persistence/postgres/cluster/instance-heartbeat';
import type { TypeOrmAppServerStore } from '../../../../src/persistence/typeorm/app-server-store';

class ChannelStandIn {
  readonly instanceId = 'instance_a';
  connectedAt = Date.now();
  /** Whether another instance deleted this one's row. */
  rowGone = false;
  /** When set, the next heartbeat UPDATE answers only once this settles. */
  holdNextBeat: Promise<void> | null = null;

  async query(text: string): Promise<Array<Record<string, unknown>>> {
    if (!text.startsWith('UPDATE')) return [];
    const held = this.holdNextBeat;
    this.holdNextBeat = null;
    // The row as it was when the statement ran, before any hold.
    const found = this.rowGone ? [] : [{ instance_id: this.instanceId }];
    if (held !== null) await held;
    return found;
  }

  prunePayloads(): Promise<void> {
    return Promise.resolve();
  }
}

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  return done;
};

describe('InstanceHeartbeat as the instance lease', () => {
  let channel: ChannelStandIn;
  let heartbeat: InstanceHeartbeat;
  let errors: unknown[];

  beforeEach(async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    channel = new ChannelStandIn();
    errors = [];
    heartbeat = new InstanceHeartbeat(
      channel as unknown as ClusterChannel,
      {} as TypeOrmAppServerStore,
      (error) => errors.push(error),
    );
    await heartbeat.start();
  });

  afterEach(async () => {
    await heartbeat.stop();
    jest.useRealTimers();
  });

  it('is current right after a beat: nothing waits', async () => {
    expect(heartbeat.check()).toBeNull();
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 3);
    expect(heartbeat.check()).toBeNull();
  });

  it('past LEASE_MS without a beat, waits for the next one, which confirms it', async () => {
    jest.setSystemTime(Date.now() + LEASE_MS + 1);
    const check = heartbeat.check();
    expect(check).not.toBeNull();
    expect(await settled(check!)).toBe(false);
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    expect(await settled(check!)).toBe(true);
    expect(heartbeat.check()).toBeNull();
  });

  it('a beat that finds the row gone: held until the recovered turns are stopped, at it and at the next beat', async () => {
    const stops: Array<() => void> = [];
    heartbeat.onDeclaredLost(() => new Promise<void>((resolve) => stops.push(resolve)));
    jest.setSystemTime(Date.now() + 20_000);
    channel.rowGone = true;
    const check = heartbeat.check()!;
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    channel.rowGone = false; // registered again
    expect(stops).toHaveLength(1);
    expect(await settled(check)).toBe(false); // the turns are still being stopped
    stops[0]();
    // The survivor recovers the turns just after deleting the row: checked once more first.
    expect(await settled(check)).toBe(false);
    expect(heartbeat.check()).not.toBeNull();
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    expect(stops).toHaveLength(2);
    expect(await settled(check)).toBe(false);
    stops[1]();
    expect(await settled(check)).toBe(true);
    expect(heartbeat.check()).toBeNull();
  });

  it('a lost-listener that fails stops nothing: still held, checked again at the next beat', async () => {
    let fail = true;
    const calls: number[] = [];
    heartbeat.onDeclaredLost(() => {
      calls.push(Date.now());
      return fail ? Promise.reject(new Error('store unreachable')) : Promise.resolve();
    });
    jest.setSystemTime(Date.now() + 20_000);
    channel.rowGone = true;
    const check = heartbeat.check()!;
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    channel.rowGone = false;
    expect(errors).toHaveLength(1);
    expect(await settled(check)).toBe(false);
    fail = false;
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 2);
    expect(calls).toHaveLength(3);
    expect(await settled(check)).toBe(true);
  });

  it('a beat sent before a pause and answered after it confirms nothing; the next beat does', async () => {
    let answer!: () => void;
    channel.holdNextBeat = new Promise<void>((resolve) => (answer = resolve));
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS); // the beat is sent
    jest.setSystemTime(Date.now() + 20_000); // paused with it in flight
    const check = heartbeat.check()!;
    answer();
    expect(await settled(check)).toBe(false);
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    expect(await settled(check)).toBe(true);
  });

  it('stopping releases whoever waits', async () => {
    jest.setSystemTime(Date.now() + LEASE_MS + 1);
    const check = heartbeat.check()!;
    await heartbeat.stop();
    expect(await settled(check)).toBe(true);
  });
});
