import { describeEachStore } from '../../support/store-drivers';
/**
 * docs/spec/history.md §1 durability against a real sqlite store: a compaction replaces the history in the
 * transaction of the item's completion, a compacted finish replaces instead of appending, the
 * prompt-size figure follows the history, and forks still see the history as it stood.
 */
import { TypeOrmAppServerStore } from '../../../src/persistence/sqlite';
import type { AppItem } from '../../../src/core/model/types';
import type { Message } from '../../../src/runtime/messages';
import { version } from './store-test-support';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

function compactionItem(turnId: string, status: AppItem['status']): AppItem {
  return {
    itemId: `item_c_${turnId}`,
    threadId: 'thread_t',
    turnId,
    type: 'contextCompaction',
    status,
    payload: { trigger: 'auto' },
    createdAt: 1,
    updatedAt: 1,
  };
}

describeEachStore('compacted conversation history', (driver) => {
  let store: TypeOrmAppServerStore;
  let now = 100;

  async function finishedTurn(turnId: string, write: { messages: Message[]; compactedHistory?: Message[] }) {
    now += 10;
    await store.beginTurn({ turnId, threadId: 'thread_t', runId: null, input: [], startedAt: now });
    await store.finishTurn({
      threadId: 'thread_t',
      turnId,
      completion: { status: 'completed', completedAt: now + 1, result: {} },
      now: now + 1,
      ...write,
      promptSize: { promptTokens: 42, messagesSince: 1 },
    });
  }

  beforeEach(async () => {
    store = await driver().open(await driver().newLocation(), { logSink: () => undefined });
    await store.threads.create({ threadId: 'thread_t', agentKey: 'default', cwd: null, metadata: {}, now });
    await finishedTurn('turn_1', { messages: [user('one'), assistant('a1')] });
    await finishedTurn('turn_2', { messages: [user('two'), assistant('a2')] });
  });

  afterEach(async () => {
    await store.close();
  });

  it('keeps the prompt-size figure of the last finish with the history it describes', async () => {
    expect(await store.conversations.loadForRun('thread_t')).toEqual({
      messages: [user('one'), assistant('a1'), user('two'), assistant('a2')],
      promptSize: { promptTokens: 42, messagesSince: 1 },
    });
  });

  it("replaces the history with the item's completion and drops the figure; the finish replaces again", async () => {
    await store.beginTurn({ turnId: 'turn_3', threadId: 'thread_t', runId: null, input: [], startedAt: 500 });
    await store.items.upsert(version(compactionItem('turn_3', 'inProgress'), 1));
    const midTurn = [user('Summary of the conversation so far:\nS'), user('three')];
    await store.completeCompaction({
      threadId: 'thread_t',
      turnId: 'turn_3',
      version: version(compactionItem('turn_3', 'completed'), 1, 2),
      history: midTurn,
    });
    expect(await store.items.get('item_c_turn_3')).toMatchObject({ status: 'completed' });
    expect(await store.conversations.loadForRun('thread_t')).toEqual({ messages: midTurn });

    const final = [...midTurn, assistant('a3')];
    await store.finishTurn({
      threadId: 'thread_t',
      turnId: 'turn_3',
      completion: { status: 'completed', completedAt: 600, result: {} },
      messages: [user('three'), assistant('a3')],
      compactedHistory: final,
      now: 600,
    });
    expect(await store.conversations.load('thread_t')).toEqual(final);
    // The mid-turn rows of turn_3 are gone, the earlier turns' rows are kept as superseded.
    const rows = (await store.query(
      `SELECT "turn_id" AS t, "superseded_by_turn_id" AS s FROM "conversation_messages" ORDER BY "seq"`,
    )) as Array<{ t: string; s: string | null }>;
    expect(rows).toEqual([
      { t: 'turn_1', s: 'turn_3' },
      { t: 'turn_1', s: 'turn_3' },
      { t: 'turn_2', s: 'turn_3' },
      { t: 'turn_2', s: 'turn_3' },
      { t: 'turn_3', s: null },
      { t: 'turn_3', s: null },
      { t: 'turn_3', s: null },
    ]);
  });

  it('forks before a compaction see the old history, forks after it the compacted one', async () => {
    const compacted = [user('Summary of the conversation so far:\nS'), user('three'), assistant('a3')];
    await finishedTurn('turn_3', { messages: [user('three'), assistant('a3')], compactedHistory: compacted });
    let ids = 0;
    const fork = async (turnId: string) => {
      ids += 1;
      const outcome = await store.forkThread({
        sourceThreadId: 'thread_t',
        turnId,
        newThreadId: `thread_f${ids}`,
        now: 900,
        newTurnId: () => `turn_f${ids}_${Math.random().toString(16).slice(2)}`,
        newItemId: () => `item_f${ids}_${Math.random().toString(16).slice(2)}`,
      });
      if (outcome.kind !== 'forked') throw new Error(outcome.kind);
      return store.conversations.load(outcome.thread.threadId);
    };
    expect(await fork('turn_2')).toEqual([user('one'), assistant('a1'), user('two'), assistant('a2')]);
    expect(await fork('turn_3')).toEqual(compacted);
    expect(await store.conversations.load('thread_t')).toEqual(compacted);
  });
});
