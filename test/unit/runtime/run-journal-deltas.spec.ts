/**
 * The journal stores stream deltas compactly (issue 11); readers must not be able to tell:
 * every reader, early or late, and `snapshot()` see the appended sequence with the same values
 * and the same key order (the order in which they serialize).
 */
import { buildRunEvent, type RunEventScope } from '../../../src/runtime/events/run-event-factory';
import type { RunEvent, RunEventPayload } from '../../../src/runtime/events/types';
import { MAX_RUN_LENGTH } from '../../../src/runtime/journal/stream-delta-run';
import { RunJournal } from '../../../src/runtime/run-journal';

const scope: RunEventScope = {
  runId: 'run_1',
  traceId: 'trace_1',
  agentName: 'agent',
  sessionId: 'thread_1',
};
const noSession: RunEventScope = { ...scope, sessionId: null };

function contentDelta(index: number): RunEventPayload {
  return {
    type: 'assistant_delta',
    delta: `chunk ${index} é😀`,
    cycle_index: 1,
    content_chars: index * 3 + 1,
    estimated_tokens: Math.ceil((index * 3 + 1) / 4),
  };
}

/** A turn-shaped stream: deltas of two model calls around tool events, reasoning, odd ones. */
function streamedRun(deltas: number): RunEvent[] {
  const events: RunEvent[] = [];
  const emit = (payload: RunEventPayload, cycleIndex = 1, metadata?: Record<string, unknown>, at = scope) =>
    events.push(buildRunEvent(at, payload, { cycleIndex, metadata }));
  emit({ type: 'run_started', input: 'hi' }, 0);
  emit({ type: 'cycle_started', cycle_index: 1 });
  for (let index = 0; index < deltas; index += 1) {
    if (index % 97 === 0)
      emit({
        type: 'reasoning_delta',
        delta: 'think',
        cycle_index: 1,
        reasoning_chars: index,
        estimated_tokens: 1,
      });
    emit(contentDelta(index));
  }
  emit({ type: 'tool_call_planned', tool_call_id: 'c1', tool_name: 'bash', arguments: { command: 'ls' } });
  // Shapes the compact form must keep as they are: no counters, metadata, no session, cycle 0.
  emit({ type: 'assistant_delta', delta: 'bare', cycle_index: 2 }, 2);
  emit(contentDelta(1), 2, { tag: 'kept' });
  emit(contentDelta(2), 2, undefined, noSession);
  emit(contentDelta(3), 0);
  for (let index = 0; index < 40; index += 1)
    emit({ ...contentDelta(index), cycle_index: 2 } as RunEventPayload, 2);
  const odd = buildRunEvent(scope, contentDelta(5), { cycleIndex: 2 });
  odd.event_id = 'evt_NOT-HEX';
  events.push(odd);
  events.push({ ...buildRunEvent(scope, contentDelta(6), { cycleIndex: 2 }), created_at: 1.5e9 + 0.123 });
  emit({ type: 'run_completed', status: 'completed', final_output: 'done' }, 2);
  return events;
}

async function drain(iterable: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/** Values and key order, as a reader that serializes the events would see them. */
const serialized = (events: readonly RunEvent[]) => events.map((event) => JSON.stringify(event));

describe('RunJournal: compact stream deltas', () => {
  const deltas = MAX_RUN_LENGTH * 2 + 300;

  it('a live reader, a reader started late and snapshot() see exactly the appended events', async () => {
    const appended = streamedRun(deltas);
    const journal = new RunJournal();
    const live = journal.reader();
    const liveRead: RunEvent[] = [];
    for (const event of appended) {
      journal.append(event);
      const next = await live.next();
      if (next.done !== true) liveRead.push(next.value);
    }
    expect(await live.next()).toEqual({ done: true, value: undefined });
    const late = await drain(journal.reader());

    expect(serialized(liveRead)).toEqual(serialized(appended));
    expect(serialized(late)).toEqual(serialized(appended));
    expect(serialized(journal.snapshot())).toEqual(serialized(appended));
    late.forEach((event, index) => expect(event).toStrictEqual(appended[index]));
  });

  it('readers interleaved with appends at different paces all get the whole sequence', async () => {
    const appended = streamedRun(3_000);
    const journal = new RunJournal();
    const readers = [journal.reader(), journal.reader(), journal.reader()];
    const read: RunEvent[][] = [[], [], []];
    const pace = [1, 7, 0];
    for (const [position, event] of appended.entries()) {
      journal.append(event);
      for (const [index, reader] of readers.entries()) {
        if (pace[index] === 0 || position % pace[index] !== 0) continue;
        for (let step = 0; step < pace[index] && read[index].length <= position; step += 1) {
          const next = await reader.next();
          if (next.done !== true) read[index].push(next.value);
        }
      }
    }
    for (const [index, reader] of readers.entries())
      for await (const event of { [Symbol.asyncIterator]: () => reader }) read[index].push(event);
    for (const events of read) expect(serialized(events)).toEqual(serialized(appended));
  });

  it('old deltas are rebuilt rather than kept as the appended objects; other events are kept', async () => {
    const appended = streamedRun(2_000);
    const journal = new RunJournal();
    appended.forEach((event) => journal.append(event));
    const late = await drain(journal.reader());
    const oldDelta = appended.findIndex((event) => event.type === 'assistant_delta');
    expect(late[oldDelta]).toEqual(appended[oldDelta]);
    expect(late[oldDelta]).not.toBe(appended[oldDelta]);
    expect(late[0]).toBe(appended[0]);
    const withMetadata = appended.findIndex((event) => event.metadata !== undefined);
    expect(late[withMetadata]).toBe(appended[withMetadata]);
  });

  it('a reader waiting at the end of a delta run wakes for the next delta and the next event', async () => {
    const journal = new RunJournal();
    const reader = journal.reader();
    const first = buildRunEvent(scope, contentDelta(0), { cycleIndex: 1 });
    journal.append(first);
    expect((await reader.next()).value).toBe(first);
    const pending = reader.next();
    const second = buildRunEvent(scope, contentDelta(1), { cycleIndex: 1 });
    journal.append(second);
    expect((await pending).value).toEqual(second);
    const terminal = buildRunEvent(scope, { type: 'run_cancelled', reason: 'stop' }, { cycleIndex: 1 });
    journal.append(terminal);
    expect((await reader.next()).value).toBe(terminal);
    expect((await reader.next()).done).toBe(true);
  });
});
