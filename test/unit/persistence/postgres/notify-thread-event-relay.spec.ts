/**
 * docs/spec/postgres.md §2: relayed events carry per-thread sequence numbers; a receiver that sees one
 * skipped re-reads the running turn's item states from the store and delivers them before the
 * event, so a lost NOTIFY never loses an item. The channel here is an in-memory stand-in for the
 * NOTIFY connection; the store is a real one.
 */
import type {
  ClusterChannel,
  ClusterMessage,
} from '../../../../src/persistence/postgres/cluster/cluster-channel';
import { NotifyThreadEventRelay } from '../../../../src/persistence/postgres/cluster/notify-thread-event-relay';
import { eventWireName } from '../../../../src/persistence/postgres/cluster/cluster-wire-names';
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

  private reconnected: (() => void) | undefined;

  onReconnected(listener: () => void): void {
    this.reconnected = listener;
  }

  /** As after the LISTEN connection was replaced. */
  reconnect(): void {
    this.reconnected?.();
  }
}

/** Waits (bounded) until `received` holds `count` events; the relay reads the store on a thread pool. */
async function untilReceived(received: unknown[], count: number): Promise<void> {
  for (const deadline = Date.now() + 5_000; received.length < count && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('NotifyThreadEventRelay', () => {
  const driver = createStoreDriver('sqlite');
  afterAll(() => driver.dispose());

  it('numbers its own events per thread', () => {
    const channel = new ChannelStandIn();
    const relay = new NotifyThreadEventRelay(channel as unknown as ClusterChannel, {} as never);
    relay.publish({ threadId: 't1', kind: 'turnStarted', params: {} });
    relay.publish({ threadId: 't2', kind: 'turnStarted', params: {} });
    relay.publish({ threadId: 't1', kind: 'turnCompleted', params: {} });
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
      kind: 'itemCompleted',
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
        kind: 'itemCompleted',
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
      channel.deliver({
        ...event(1, 'turn/started'),
        params: { seq: 1, turnId: 'turn_g' },
      } as ClusterMessage);
      channel.deliver(event(4, 'item/agentMessage/delta'));
      channel.deliver(event(5, 'item/agentMessage/delta'));
      // Our own echo is never delivered by the channel; another sender's numbering is its own.
      channel.deliver({ ...event(1, 'error/warning'), from: 'instance_c' });
      // The repair reads the store first; all six arrive behind it.
      await untilReceived(received, 6);

      expect(
        received.map((e) => [
          eventWireName(e.kind),
          (e.params as { itemId?: string; seq?: number }).itemId ?? e.params,
        ]),
      ).toEqual([
        ['turn/started', { seq: 1, turnId: 'turn_g' }],
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

  describe("a turn's last events lost while a connection was replaced", () => {
    const STORED_RESULT = {
      finalOutput: 'all done',
      completionReason: 'completed',
      tokenUsage: { inputTokens: 3, outputTokens: 4, cachedInputTokens: 0, totalTokens: 7 },
    };

    /** A thread whose turn started on instance_a and then ended in the store. */
    async function endedTurn(store: Awaited<ReturnType<typeof driver.open>>): Promise<void> {
      await store.threads.create({ threadId: 'thread_e', agentKey: 'a', cwd: null, metadata: {}, now: 1 });
      await store.beginTurn({
        turnId: 'turn_e',
        threadId: 'thread_e',
        runId: 'run_e',
        input: [],
        startedAt: 2,
      });
      await store.finishTurn({
        threadId: 'thread_e',
        turnId: 'turn_e',
        completion: { status: 'completed', completedAt: 9, result: STORED_RESULT },
        items: [version(agentMessage('item_e', 'thread_e', 'turn_e', 'all done', 'completed', 9), 1, 2)],
        messages: [],
        now: 9,
      });
    }

    const fromA = (seq: number, name: string, params: object): ClusterMessage =>
      ({
        from: 'instance_a',
        kind: 'threadEvent',
        threadId: 'thread_e',
        seq,
        name,
        params,
      }) as ClusterMessage;

    const turnE = (seq: number, name: 'turn/started' | 'turn/completed'): ClusterMessage =>
      fromA(seq, name, { threadId: 'thread_e', turnId: 'turn_e' });

    /** Until `count` events arrived, and a little longer, so that one too many would show. */
    async function settle(received: RelayedThreadEvent[], count: number): Promise<void> {
      await untilReceived(received, count);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    interface RelayOnEndedTurn {
      channel: ChannelStandIn;
      relay: NotifyThreadEventRelay;
      received: RelayedThreadEvent[];
      store: Awaited<ReturnType<typeof driver.open>>;
    }

    /** A relay over a real store holding endedTurn (and `laterTurnId` running after it). */
    async function onEndedTurn(body: (context: RelayOnEndedTurn) => Promise<void>, laterTurnId?: string) {
      const store = await driver.open(await driver.newLocation());
      try {
        await endedTurn(store);
        if (laterTurnId !== undefined)
          await store.beginTurn({
            turnId: laterTurnId,
            threadId: 'thread_e',
            runId: `run_${laterTurnId}`,
            input: [],
            startedAt: 10,
          });
        const channel = new ChannelStandIn();
        const relay = new NotifyThreadEventRelay(channel as unknown as ClusterChannel, store);
        const received: RelayedThreadEvent[] = [];
        relay.onRemoteEvent((event) => received.push(event));
        await body({ channel, relay, received, store });
      } finally {
        await store.close();
      }
    }

    it.each([
      ['this instance reconnects', (channel: ChannelStandIn) => channel.reconnect()],
      [
        'the sender says it reconnected',
        (channel: ChannelStandIn) => channel.deliver({ from: 'instance_a', kind: 'threadEventsReconnected' }),
      ],
    ])(
      'when %s: the final item states, idle and turn/completed from the store, once',
      async (_when, reconnect) => {
        await onEndedTurn(async ({ channel, received }) => {
          channel.deliver(turnE(1, 'turn/started'));
          reconnect(channel);
          await untilReceived(received, 4);
          expect(received.slice(1).map((e) => [eventWireName(e.kind), e.params])).toEqual([
            ['item/completed', expect.objectContaining({ itemId: 'item_e', status: 'completed' })],
            ['thread/status/changed', { threadId: 'thread_e', status: 'idle' }],
            [
              'turn/completed',
              {
                threadId: 'thread_e',
                turnId: 'turn_e',
                runId: 'run_e',
                status: 'completed',
                ...STORED_RESULT,
              },
            ],
          ]);
          // The sender's own copies, if they still come, repeat what was delivered: dropped, and so
          // is any later event of that turn (nothing of a turn after its turn/completed).
          channel.deliver(
            fromA(6, 'item/completed', { threadId: 'thread_e', turnId: 'turn_e', itemId: 'item_e' }),
          );
          channel.deliver(fromA(7, 'thread/status/changed', { threadId: 'thread_e', status: 'idle' }));
          channel.deliver(fromA(8, 'turn/completed', { threadId: 'thread_e', turnId: 'turn_e' }));
          // A second reconnect finds no open turn.
          reconnect(channel);
          channel.deliver(fromA(9, 'error/warning', { threadId: 'thread_e' }));
          await settle(received, 5);
          expect(received.slice(4).map((e) => eventWireName(e.kind))).toEqual(['error/warning']);
        });
      },
    );

    it('a turn this instance announced the end of (a recovered one) gets no second end', async () => {
      await onEndedTurn(async ({ channel, relay, received }) => {
        channel.deliver(turnE(1, 'turn/started'));
        relay.publish({
          threadId: 'thread_e',
          kind: 'turnCompleted',
          params: { threadId: 'thread_e', turnId: 'turn_e' },
        });
        channel.reconnect();
        channel.deliver(fromA(2, 'error/warning', { threadId: 'thread_e' }));
        await settle(received, 2);
        expect(received.map((e) => eventWireName(e.kind))).toEqual(['turn/started', 'error/warning']);
      });
    });

    it('a turn that started behind the reconnect is not ended before it starts', async () => {
      await onEndedTurn(async ({ channel, received }) => {
        channel.deliver(turnE(1, 'turn/started'));
        channel.reconnect();
        // The follow-up's start arrives while the restore reads the store.
        channel.deliver(fromA(5, 'turn/started', { threadId: 'thread_e', turnId: 'turn_f' }));
        await settle(received, 5);
        expect(
          received.map((e) => [eventWireName(e.kind), (e.params as { turnId?: string }).turnId]),
        ).toEqual([
          ['turn/started', 'turn_e'],
          ['item/completed', 'turn_e'],
          // turn_e is not the thread's last turn: its idle is not restored (turn_f runs).
          ['turn/completed', 'turn_e'],
          // turn_f's running status (seq 4) was lost with turn_e's end: it comes from the store, and
          // the sender's turn/started (seq 5) only once.
          ['thread/status/changed', undefined],
          ['turn/started', 'turn_f'],
        ]);
      }, 'turn_f');
    });

    it("a turn that started while the sender's events were lost is announced before its items, once", async () => {
      await onEndedTurn(async ({ channel, received }) => {
        channel.deliver(turnE(1, 'turn/started'));
        channel.deliver(turnE(2, 'turn/completed'));
        // Lost: 3 thread/status/changed(running), 4 turn/started(turn_s), 5 item/started.
        channel.deliver(fromA(6, 'item/agentMessage/delta', { threadId: 'thread_e', turnId: 'turn_s' }));
        await settle(received, 5);
        expect(received.slice(2).map((e) => [eventWireName(e.kind), e.params])).toEqual([
          ['thread/status/changed', { threadId: 'thread_e', status: 'running' }],
          ['turn/started', { threadId: 'thread_e', turnId: 'turn_s' }],
          ['item/agentMessage/delta', { threadId: 'thread_e', turnId: 'turn_s' }],
        ]);
        // Its end is the sender's, and is not made up by a later reconnect.
        channel.deliver(fromA(7, 'turn/completed', { threadId: 'thread_e', turnId: 'turn_s' }));
        channel.reconnect();
        channel.deliver(fromA(8, 'error/warning', { threadId: 'thread_e' }));
        await settle(received, 7);
        expect(received.slice(5).map((e) => eventWireName(e.kind))).toEqual([
          'turn/completed',
          'error/warning',
        ]);
      }, 'turn_s');
    });

    it("a lost turn end before the next turn's start: both from the store, the sender's copies once", async () => {
      await onEndedTurn(async ({ channel, received }) => {
        channel.deliver(turnE(1, 'turn/started'));
        // Lost: 2 turn/completed(turn_e). The next turn's status shows the gap.
        channel.deliver(fromA(3, 'thread/status/changed', { threadId: 'thread_e', status: 'running' }));
        channel.deliver(fromA(4, 'turn/started', { threadId: 'thread_e', turnId: 'turn_s' }));
        channel.deliver(fromA(5, 'item/agentMessage/delta', { threadId: 'thread_e', turnId: 'turn_s' }));
        await settle(received, 6);
        expect(
          received.map((e) => [eventWireName(e.kind), (e.params as { turnId?: string }).turnId]),
        ).toEqual([
          ['turn/started', 'turn_e'],
          // The lost end of turn_e comes from the store (no idle: turn_s started since).
          ['item/completed', 'turn_e'],
          ['turn/completed', 'turn_e'],
          ['thread/status/changed', undefined],
          ['turn/started', 'turn_s'],
          ['item/agentMessage/delta', 'turn_s'],
        ]);
      }, 'turn_s');
    });

    it("a gap shown by the previous turn's event, the store already past it: each event once, no idle beside the running turn", async () => {
      await onEndedTurn(async ({ channel, received }) => {
        channel.deliver(turnE(1, 'turn/started'));
        // Lost: 2 (an item of turn_e). By the time the repair reads the store turn_e has ended and
        // turn_s runs; the sender's 3…7 (turn_e's last item, idle and end, turn_s's running and
        // start) arrive behind it.
        channel.deliver(
          fromA(3, 'item/completed', { threadId: 'thread_e', turnId: 'turn_e', itemId: 'item_e' }),
        );
        channel.deliver(fromA(4, 'thread/status/changed', { threadId: 'thread_e', status: 'idle' }));
        channel.deliver(turnE(5, 'turn/completed'));
        channel.deliver(fromA(6, 'thread/status/changed', { threadId: 'thread_e', status: 'running' }));
        channel.deliver(fromA(7, 'turn/started', { threadId: 'thread_e', turnId: 'turn_s' }));
        channel.deliver(fromA(8, 'item/agentMessage/delta', { threadId: 'thread_e', turnId: 'turn_s' }));
        await settle(received, 6);
        expect(
          received.map((e) => [
            eventWireName(e.kind),
            (e.params as { turnId?: string; status?: string }).turnId ??
              (e.params as { status?: string }).status,
          ]),
        ).toEqual([
          ['turn/started', 'turn_e'],
          ['item/completed', 'turn_e'],
          ['turn/completed', 'turn_e'],
          ['thread/status/changed', 'running'],
          ['turn/started', 'turn_s'],
          ['item/agentMessage/delta', 'turn_s'],
        ]);
        // turn_s's own end still gets its idle.
        channel.deliver(fromA(9, 'thread/status/changed', { threadId: 'thread_e', status: 'idle' }));
        channel.deliver(fromA(10, 'turn/completed', { threadId: 'thread_e', turnId: 'turn_s' }));
        await settle(received, 8);
        expect(received.slice(6).map((e) => eventWireName(e.kind))).toEqual([
          'thread/status/changed',
          'turn/completed',
        ]);
      }, 'turn_s');
    });

    it('a reconnect finding a later turn ended too: the idle comes from the store, and a later idle of the sender is delivered', async () => {
      await onEndedTurn(async ({ channel, received, store }) => {
        await store.finishTurn({
          threadId: 'thread_e',
          turnId: 'turn_t',
          completion: { status: 'completed', completedAt: 12, result: STORED_RESULT },
          messages: [],
          now: 12,
        });
        channel.deliver(turnE(1, 'turn/started'));
        channel.reconnect();
        await settle(received, 4);
        expect(received.slice(1).map((e) => eventWireName(e.kind))).toEqual([
          'item/completed',
          'thread/status/changed',
          'turn/completed',
        ]);
        // Past the window for late copies, the sender's next idle (another turn's) is its own.
        const realNow = Date.now.bind(Date);
        jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_000);
        try {
          channel.deliver(fromA(9, 'thread/status/changed', { threadId: 'thread_e', status: 'idle' }));
          await settle(received, 5);
        } finally {
          jest.restoreAllMocks();
        }
        expect(
          received.slice(4).map((e) => [eventWireName(e.kind), (e.params as { status?: string }).status]),
        ).toEqual([['thread/status/changed', 'idle']]);
      }, 'turn_t');
    });

    it("a gap never announces a turn of this instance's own", async () => {
      await onEndedTurn(async ({ channel, relay, received }) => {
        // turn_s is this instance's: begun in the store, its slot held here, not yet announced.
        relay.setLocalTurns((threadId) => threadId === 'thread_e');
        channel.deliver(turnE(1, 'turn/completed'));
        channel.deliver(fromA(3, 'thread/updated', { threadId: 'thread_e' }));
        await settle(received, 2);
        expect(received.map((e) => eventWireName(e.kind))).toEqual(['turn/completed', 'thread/updated']);
      }, 'turn_s');
    });

    it('a turn whose end arrived, or that still runs, gets no end from a reconnect', async () => {
      await onEndedTurn(async ({ channel, received }) => {
        channel.deliver(turnE(1, 'turn/started'));
        channel.deliver(turnE(2, 'turn/completed'));
        channel.deliver(fromA(3, 'turn/started', { threadId: 'thread_e', turnId: 'turn_r' }));
        channel.reconnect();
        channel.deliver(fromA(4, 'error/warning', { threadId: 'thread_e' }));
        await settle(received, 4);
        // The running turn's item states may be re-sent (upserts); no turn end is made up.
        expect(
          received.map((e) => eventWireName(e.kind)).filter((name) => !name.startsWith('item/')),
        ).toEqual(['turn/started', 'turn/completed', 'turn/started', 'error/warning']);
      }, 'turn_r');
    });
  });
});
