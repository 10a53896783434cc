import { EventBatches } from '../../../../src/core/turns/event-batches';
import type { RunEvent } from '../../../../src/runtime/events/types';
import { RunJournal } from '../../../../src/runtime/run-journal';
import { coalesceItemVersions } from '../../../../src/core/store/item-write-batch';
import type { ItemVersion } from '../../../../src/core/store/records';
import type { AppItem } from '../../../../src/core/model/types';

/** A source the test feeds by hand; `fail` ends it with an error. */
class ManualSource implements AsyncIterable<number> {
  private readonly queue: Array<IteratorResult<number> | Error> = [];
  private waiting: (() => void) | null = null;

  push(value: number): void {
    this.enqueue({ done: false, value });
  }

  end(): void {
    this.enqueue({ done: true, value: undefined });
  }

  fail(error: Error): void {
    this.enqueue(error);
  }

  [Symbol.asyncIterator](): AsyncIterator<number> {
    return {
      next: async () => {
        while (this.queue.length === 0) await new Promise<void>((resolve) => (this.waiting = resolve));
        const head = this.queue.shift()!;
        if (head instanceof Error) throw head;
        return head;
      },
    };
  }

  private enqueue(entry: IteratorResult<number> | Error): void {
    this.queue.push(entry);
    this.waiting?.();
    this.waiting = null;
  }
}

const runEvent = (type: string, id: string) => ({ type, event_id: id }) as unknown as RunEvent;

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EventBatches', () => {
  it('hands out everything that arrived while the consumer was busy, in order, up to the cap', async () => {
    const source = new ManualSource();
    const batches = new EventBatches(source, 3);
    source.push(1);
    expect(await batches.take()).toEqual([1]);
    for (const value of [2, 3, 4, 5]) source.push(value);
    await settle();
    expect(await batches.take()).toEqual([2, 3, 4]);
    expect(await batches.take()).toEqual([5]);
    source.end();
    expect(await batches.take()).toEqual([]);
  });

  it('throws a stream failure only after the events that came before it', async () => {
    const source = new ManualSource();
    const batches = new EventBatches(source, 10);
    source.push(1);
    source.push(2);
    source.fail(new Error('broken'));
    await settle();
    expect(await batches.take()).toEqual([1, 2]);
    await expect(batches.take()).rejects.toThrow('broken');
  });

  it('reads at most one batch ahead of its consumer: the rest stays in the source', async () => {
    let pulled = 0;
    const source: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: (pulled += 1) }),
      }),
    };
    const batches = new EventBatches(source, 4);
    await settle();
    expect(pulled).toBe(4);
    expect(await batches.take()).toEqual([1, 2, 3, 4]);
    await settle();
    expect(pulled).toBe(8);
    expect(await batches.take()).toEqual([5, 6, 7, 8]);
    batches.stop();
  });

  it("takes a journal reader's events straight from the journal, everything unread in one batch", async () => {
    const journal = new RunJournal();
    const batches = new EventBatches(journal.reader(), 3);
    const first = batches.take();
    journal.append(runEvent('run_started', 'e1'));
    expect((await first).map((event) => event.event_id)).toEqual(['e1']);
    for (const id of ['e2', 'e3', 'e4', 'e5']) journal.append(runEvent('diagnostic', id));
    expect((await batches.take()).map((event) => event.event_id)).toEqual(['e2', 'e3', 'e4']);
    journal.append(runEvent('run_completed', 'e6'));
    expect((await batches.take()).map((event) => event.event_id)).toEqual(['e5', 'e6']);
    expect(await batches.take()).toEqual([]);
  });

  it('stops waiting once stopped', async () => {
    const batches = new EventBatches(new ManualSource(), 10);
    const pending = batches.take();
    batches.stop();
    expect(await pending).toEqual([]);
  });
});

describe('coalesceItemVersions', () => {
  const version = (itemId: string, changeSeq: number, status: string): ItemVersion => ({
    item: { itemId, status } as unknown as AppItem,
    createdSeq: 0,
    changeSeq,
  });

  it('keeps the latest state of each item, in order of first appearance', () => {
    const coalesced = coalesceItemVersions([
      version('a', 1, 'inProgress'),
      version('b', 2, 'inProgress'),
      version('a', 3, 'completed'),
      version('c', 4, 'completed'),
      version('b', 5, 'completed'),
    ]);
    expect(coalesced.map((entry) => [entry.item.itemId, entry.changeSeq])).toEqual([
      ['a', 3],
      ['b', 5],
      ['c', 4],
    ]);
  });

  it('never lets an older state replace a newer one', () => {
    const coalesced = coalesceItemVersions([version('a', 7, 'completed'), version('a', 6, 'inProgress')]);
    expect(coalesced).toEqual([version('a', 7, 'completed')]);
  });
});
