/**
 * One slow reader never stalls a turn or the other readers (architecture: per-subscriber cursors
 * over the thread's event log). Two in-process connections subscribe to one thread; one stops
 * reading while a turn streams 20,000 deltas. The other receives every delta in order, the turn
 * takes about as long as with no stalled reader, and the stalled connection holds no more than its
 * outbound queue's capacity.
 */
import { finish } from '../../../../src/runtime/model/scripted-model';
import { OUTBOUND_QUEUE_CAPACITY } from '../../../../src/rpc/connection';
import { CHUNK, LiveAppServer, runTurn, text, WireClient } from '../../support/live-app-server';

jest.setTimeout(120_000);

const DELTAS = 20_000;

/** A client that, once stalled, accepts one last line and then never signals drain again. */
class StallingClient extends WireClient {
  stalled = false;
  linesWhileStalled = 0;

  override write(line: string): boolean {
    if (!this.stalled) return super.write(line);
    this.linesWhileStalled += 1;
    return false;
  }

  override onDrain(): void {
    // Never drains: the reader is gone for good.
  }
}

function longAnswer(): string {
  return Array.from({ length: DELTAS }, (_, index) => String.fromCharCode(97 + (index % 26))).join(CHUNK);
}

async function streamedTurn(stall: boolean): Promise<{ milliseconds: number; deltas: string[] }> {
  const live = await LiveAppServer.start({ steps: [finish(longAnswer())] });
  try {
    const reader = await live.connect();
    const threadId = await live.startThread(reader);
    const stalled = new StallingClient(live.server);
    await stalled.call('initialize', { clientInfo: { name: 'stalled' } });
    await stalled.call('thread/resume', { threadId });
    stalled.stalled = stall;

    const started = performance.now();
    const { from, completed } = await runTurn(reader, threadId, text('stream a long answer'), 60_000);
    const milliseconds = performance.now() - started;
    expect(completed.params).toMatchObject({ status: 'completed' });
    const deltas = reader
      .traffic(from)
      .filter((message) => message.method === 'item/agentMessage/delta')
      .map((message) => String(message.params?.delta));
    if (stall) {
      expect(stalled.linesWhileStalled).toBe(1);
      expect(stalled.connection.queuedLines).toBeLessThanOrEqual(OUTBOUND_QUEUE_CAPACITY);
      // What the stalled reader still owes is a handful of runs over the shared log, not copies.
      expect(stalled.connection.heldRuns).toBeLessThanOrEqual(4);
    }
    return { milliseconds, deltas };
  } finally {
    await live.close();
  }
}

describe('a subscriber that stops reading', () => {
  it('does not slow the turn or the other subscriber, and holds at most its queue', async () => {
    await streamedTurn(false); // warm-up: module loading and JIT out of the comparison
    const expected = longAnswer().split(CHUNK);
    const slowedDown = (free: number, stalled: number) => stalled > 1.5 * free + 250;
    let free = await streamedTurn(false);
    let withStalled = await streamedTurn(true);
    // One wall-clock sample each: a load spike on the machine during one of them is not the
    // stalled reader's doing, so a pair that looks slowed down is measured once more.
    if (slowedDown(free.milliseconds, withStalled.milliseconds)) {
      free = await streamedTurn(false);
      withStalled = await streamedTurn(true);
    }

    expect(free.deltas).toEqual(expected);
    expect(withStalled.deltas).toEqual(expected);
    expect(withStalled.milliseconds).toBeLessThanOrEqual(1.5 * free.milliseconds + 250);
  });
});
