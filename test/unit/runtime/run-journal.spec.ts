import type { RunEvent } from '../../../src/runtime/events/types';
import { RunJournal } from '../../../src/runtime/run-journal';
import { estimateMessageTokens, trimHistory } from '../../../src/runtime/history-trimming';
import { Conversation } from '../../../src/runtime/conversation';

const event = (type: string, id: string) => ({ type, event_id: id }) as unknown as RunEvent;

async function drain(iterable: AsyncIterable<RunEvent>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.event_id);
  return ids;
}

describe('RunJournal', () => {
  it('readers replay the backlog, follow live appends and end after the terminal event', async () => {
    const journal = new RunJournal();
    journal.append(event('run_started', 'e1'));
    const early = drain(journal.reader());
    journal.append(event('agent_started', 'e2'));
    await new Promise((resolve) => setImmediate(resolve));
    const middle = drain(journal.reader());
    journal.append(event('run_completed', 'e3'));
    expect(journal.hasTerminalEvent).toBe(true);
    expect(() => journal.append(event('diagnostic', 'e4'))).toThrow('run journal is closed');
    expect(await early).toEqual(['e1', 'e2', 'e3']);
    expect(await middle).toEqual(['e1', 'e2', 'e3']);
    expect(await drain(journal.reader())).toEqual(['e1', 'e2', 'e3']);
  });

  it('close() ends waiting readers without a terminal event', async () => {
    const journal = new RunJournal();
    const reading = drain(journal.reader());
    journal.close();
    expect(await reading).toEqual([]);
    expect(journal.hasTerminalEvent).toBe(false);
  });

  it('a reader stopped early does not affect others', async () => {
    const journal = new RunJournal();
    ['e1', 'e2'].forEach((id) => journal.append(event('diagnostic', id)));
    for await (const item of journal.reader()) {
      expect(item.event_id).toBe('e1');
      break;
    }
    journal.append(event('run_failed', 'e3'));
    expect(await drain(journal.reader())).toEqual(['e1', 'e2', 'e3']);
  });

  it('nextBatch hands over what the reader has not read (at most max), waits for more, then ends', async () => {
    const journal = new RunJournal();
    const reader = journal.reader();
    ['e1', 'e2', 'e3'].forEach((id) => journal.append(event('diagnostic', id)));
    expect((await reader.next()).value?.event_id).toBe('e1');
    expect((await reader.nextBatch(0)).map((item) => item.event_id)).toEqual(['e2']);
    expect((await reader.nextBatch(10)).map((item) => item.event_id)).toEqual(['e3']);
    const waiting = reader.nextBatch(2);
    ['e4', 'e5', 'e6'].forEach((id) => journal.append(event('diagnostic', id)));
    expect((await waiting).map((item) => item.event_id)).toEqual(['e4', 'e5']);
    journal.append(event('run_completed', 'e7'));
    expect((await reader.nextBatch(10)).map((item) => item.event_id)).toEqual(['e6', 'e7']);
    expect(await reader.nextBatch(10)).toEqual([]);
    expect((await reader.next()).done).toBe(true);
  });
});

describe('history trimming (§11.6)', () => {
  const system = { role: 'system' as const, content: 'sys' };
  const user = { role: 'user' as const, content: 'now' };

  it('estimates code points of content, reasoning and tool calls', () => {
    expect(estimateMessageTokens({ role: 'user', content: '😀😀😀😀😀' })).toBe(2 + 4);
    expect(
      estimateMessageTokens({
        role: 'assistant',
        content: 'abcd',
        reasoning_content: 'ef',
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'gh', arguments: '{}' } }],
      }),
    ).toBe(Math.ceil(10 / 4) + 4);
  });

  it('without a context length nothing is trimmed', () => {
    const history = [{ role: 'user' as const, content: 'x'.repeat(100_000) }];
    expect(
      trimHistory({
        history,
        contextLength: null,
        maxOutputTokens: null,
        fixedMessages: [system, user],
        toolSpecsJson: '',
      }),
    ).toEqual({ kept: history, droppedCount: 0 });
  });

  it('budget ≤ 0 drops everything; a reserve ≥ context uses a quarter of it', () => {
    const history = [{ role: 'user' as const, content: 'hi' }];
    expect(
      trimHistory({
        history,
        contextLength: 10,
        maxOutputTokens: 100,
        fixedMessages: [system, user],
        toolSpecsJson: '',
      }),
    ).toEqual({ kept: [], droppedCount: 1 });
    // context 40, reserve floor(40/4)=10, budget = 40 - 10 - 5 - 5 - 0 = 20 ≥ est('hi') = 5
    expect(
      trimHistory({
        history,
        contextLength: 40,
        maxOutputTokens: 100,
        fixedMessages: [system, user],
        toolSpecsJson: '',
      }).droppedCount,
    ).toBe(0);
  });
});

describe('Conversation.newMessages repair', () => {
  it('adds run_ended results right after the assistant message whose calls never got one', () => {
    const conversation = new Conversation([{ role: 'system', content: 's' }]);
    conversation.append({ role: 'user', content: 'u' });
    conversation.append({
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 't', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 't', arguments: '{}' } },
      ],
    });
    conversation.append({ role: 'tool', tool_call_id: 'a', content: 'ok' });
    conversation.append({ role: 'user', content: 'steer' });
    expect(conversation.newMessages().map((message) => [message.role, message.content])).toEqual([
      ['user', 'u'],
      ['assistant', ''],
      ['tool', 'ok'],
      [
        'tool',
        '{"ok":false,"error":"Tool call did not run because the run ended.","error_code":"run_ended"}',
      ],
      ['user', 'steer'],
    ]);
  });
});
