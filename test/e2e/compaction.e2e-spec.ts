/**
 * Context compaction end to end (docs/spec/history.md §1): the built CLI over stdio, a real store (a sqlite
 * file, then a PostgreSQL database) and the fake model server on 127.0.0.1 with a small
 * `context_length`. Build first (`npm run build`).
 *
 * Sizes: context_length 8000 → automatic compaction above 6400 estimated tokens, kept tail 2400.
 * The CLI's tool specs are ~2500 tokens, each turn's user message ~1500 (6000 characters): the
 * first call of the third turn passes 80 %, the first two do not.
 */
import {
  describeMessage,
  E2eSandbox,
  isTurnCompleted,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
} from '../helpers/app-server-session';
import { textReply, type FakeReply } from '../helpers/fake-openai-server';
import { finishReply, hangingTextReply, requestMessages } from '../helpers/model-replies';
import { STORE_DRIVERS } from '../support/store-drivers';

jest.setTimeout(60_000);

const CONTEXT_LENGTH = 8000;
const SUMMARY_PREFIX = 'Summary of the conversation so far:\n';
const UNKNOWN_THREAD = 'thread_00000000000000000000000000000000';
const refused: FakeReply = { type: 'response', status: 400, body: { error: { message: 'summary refused' } } };

// docs/spec/postgres.md §1: compaction rewrites the stored history and must survive a restart: both drivers.
describe.each(STORE_DRIVERS)('compaction over stdio [%s store]', (storeDriver) => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-compaction-e2e-', { contextLength: CONTEXT_LENGTH, storeDriver });
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  async function ready(): Promise<AppServerSession> {
    const session = sandbox.spawn();
    await session.initialize();
    return session;
  }

  /** A user message of ~1500 tokens that starts with `marker`. */
  const big = (marker: string): string => `${marker} ${'x'.repeat(6000)}`;
  const textInput = (text: string) => [{ type: 'text', text }];

  /** Starts a turn (its model replies already queued) and returns its notifications up to turn/completed. */
  async function turn(session: AppServerSession, threadId: string, marker: string): Promise<JsonMessage[]> {
    await session.call('turn/start', { threadId, input: textInput(big(marker)) });
    return session.collectUntil(isTurnCompleted(threadId));
  }

  /** One ordinary turn answered by `task_finish`. */
  async function plainTurn(
    session: AppServerSession,
    threadId: string,
    marker: string,
  ): Promise<JsonMessage[]> {
    sandbox.model.enqueue(finishReply(`done ${marker}`, { content: [`done ${marker}`] }));
    return turn(session, threadId, marker);
  }

  /** The text contents of a recorded request's messages. */
  function contents(index: number): string[] {
    return requestMessages(sandbox.model.requests[index].body).map((m) =>
      typeof m.content === 'string' ? m.content : '',
    );
  }

  function compactionItems(messages: JsonMessage[]): Array<Record<string, unknown>> {
    return messages
      .filter((m) => typeof m.method === 'string' && m.method.startsWith('item/'))
      .map(paramsOf)
      .filter((item) => item.type === 'contextCompaction');
  }

  const completedOf = (messages: JsonMessage[]): Record<string, unknown> =>
    paramsOf(messages[messages.length - 1]);

  describe('automatic compaction (docs/spec/history.md §1)', () => {
    it('compacts before the call that passes 80 %; that request and the next turn hold the summary and the recent messages, none of the compacted ones', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      await plainTurn(session, threadId, 'first');
      await plainTurn(session, threadId, 'second');
      expect(sandbox.model.requests).toHaveLength(2);

      sandbox.model.enqueue(textReply(['SUMMARY-1']), finishReply('done third', { content: ['done third'] }));
      const third = await turn(session, threadId, 'third');
      expect(third.map(describeMessage)).toEqual([
        'thread/status/changed(running)',
        'turn/started',
        'item/completed(userMessage)',
        'item/started(contextCompaction)',
        'item/completed(contextCompaction)',
        'item/started(agentMessage)',
        'item/agentMessage/delta(agentMessage)',
        'item/completed(agentMessage)',
        'item/started(toolCall)',
        'item/toolCall/delta(toolCall)',
        'item/completed(toolCall)',
        'thread/status/changed(idle)',
        'turn/completed',
      ]);
      const [started, completed] = compactionItems(third);
      expect(started).toMatchObject({ status: 'inProgress', payload: { trigger: 'auto' } });
      expect(completed).toMatchObject({ itemId: started.itemId, status: 'completed' });
      expect(completed.payload).toEqual({
        trigger: 'auto',
        summary: 'SUMMARY-1',
        messagesBefore: expect.any(Number),
        messagesAfter: expect.any(Number),
        estimatedTokensBefore: expect.any(Number),
        estimatedTokensAfter: expect.any(Number),
      });
      const payload = completed.payload as Record<string, number>;
      expect(payload.estimatedTokensBefore).toBeGreaterThan(0.8 * CONTEXT_LENGTH);
      expect(payload.estimatedTokensAfter).toBeLessThan(payload.estimatedTokensBefore);
      expect(payload.messagesAfter).toBeLessThan(payload.messagesBefore);
      expect(completedOf(third)).toMatchObject({ status: 'completed', finalOutput: 'done third' });

      // The summary request: no tools, the compacted history, then the instructions.
      const summaryRequest = sandbox.model.requests[2].body ?? {};
      expect(summaryRequest).not.toHaveProperty('tools');
      expect(contents(2)[contents(2).length - 1]).toContain('hand-off summary');
      expect(contents(2).some((text) => text.startsWith('first'))).toBe(true);

      // The turn's own call goes out with the compacted conversation.
      for (const index of [3]) {
        expect(contents(index)[1]).toBe(`${SUMMARY_PREFIX}SUMMARY-1`);
        expect(
          contents(index).filter((text) => text.startsWith('first') || text.startsWith('second')),
        ).toEqual([]);
        expect(contents(index).some((text) => text.startsWith('third'))).toBe(true);
      }

      // Persisted and replayed like any item; the next turn starts from the compacted history.
      const snapshot = await session.call<{ items: Array<Record<string, unknown>> }>('thread/read', {
        threadId,
      });
      expect(snapshot.items.filter((item) => item.type === 'contextCompaction')).toEqual([completed]);
      await plainTurn(session, threadId, 'fourth');
      expect(contents(4)[1]).toBe(`${SUMMARY_PREFIX}SUMMARY-1`);
      expect(contents(4).filter((text) => text.startsWith('first') || text.startsWith('second'))).toEqual([]);
      expect(contents(4).filter((text) => /^(third|fourth)/.test(text))).toHaveLength(2);
    });

    it('a failing summary call: the item fails with the error, the history is trimmed and the turn completes', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      await plainTurn(session, threadId, 'first');
      await plainTurn(session, threadId, 'second');
      sandbox.model.enqueue(refused, finishReply('done third', { content: ['done third'] }));
      const third = await turn(session, threadId, 'third');

      const [started, failed] = compactionItems(third);
      expect(started).toMatchObject({ status: 'inProgress', payload: { trigger: 'auto' } });
      expect(failed).toMatchObject({
        itemId: started.itemId,
        status: 'failed',
        payload: { trigger: 'auto' },
      });
      expect(failed.payload).toEqual({ trigger: 'auto', error: expect.stringMatching(/.+/) });
      expect(completedOf(third)).toMatchObject({ status: 'completed', finalOutput: 'done third' });
      // The turn's call went out without a summary, with the oldest segment trimmed away.
      expect(sandbox.model.requests).toHaveLength(4);
      expect(contents(3).some((text) => text.startsWith(SUMMARY_PREFIX))).toBe(false);
      expect(contents(3).some((text) => text.startsWith('first'))).toBe(false);
      expect(contents(3)[contents(3).length - 1]).toMatch(/^third/);
    });

    it('survives kill -9 right after the compaction: the next turn after restart starts from the compacted history', async () => {
      const first = await ready();
      const { threadId } = await first.startThread();
      await plainTurn(first, threadId, 'first');
      await plainTurn(first, threadId, 'second');
      sandbox.model.enqueue(textReply(['SUMMARY-K']), hangingTextReply(['working']));
      await first.call('turn/start', { threadId, input: textInput(big('third')) });
      await first.waitFor((m) => m.method === 'item/completed' && paramsOf(m).type === 'contextCompaction');
      await sandbox.model.waitForRequests(4);
      await first.kill();

      const second = await ready();
      const snapshot = await second.call<{
        turns: Array<Record<string, unknown>>;
        items: Array<Record<string, unknown>>;
      }>('thread/read', { threadId });
      expect(snapshot.turns.map((t) => t.status)).toEqual(['completed', 'completed', 'interrupted']);
      expect(snapshot.items.filter((item) => item.type === 'contextCompaction')).toEqual([
        expect.objectContaining({
          status: 'completed',
          payload: expect.objectContaining({ summary: 'SUMMARY-K' }),
        }),
      ]);
      await plainTurn(second, threadId, 'fourth');
      expect(sandbox.model.requests).toHaveLength(5);
      expect(contents(4)[1]).toBe(`${SUMMARY_PREFIX}SUMMARY-K`);
      expect(contents(4).filter((text) => text.startsWith('first') || text.startsWith('second'))).toEqual([]);
      expect(contents(4).filter((text) => /^(third|fourth)/.test(text))).toHaveLength(2);
    });
  });

  describe('thread/compact (docs/spec/history.md §1)', () => {
    it('compacts on demand: a compaction turn with only the contextCompaction item; the next turn starts from the summary', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      await plainTurn(session, threadId, 'first');
      await plainTurn(session, threadId, 'second');
      sandbox.model.enqueue(textReply(['SUMMARY-M']));

      const answer = await session.call<Record<string, unknown>>('thread/compact', { threadId });
      expect(answer).toEqual({ threadId, turnId: expect.stringMatching(/^turn_[0-9a-f]{32}$/) });
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      expect(traffic.map(describeMessage)).toEqual([
        'thread/status/changed(running)',
        'turn/started',
        'item/started(contextCompaction)',
        'item/completed(contextCompaction)',
        'thread/status/changed(idle)',
        'turn/completed',
      ]);
      expect(paramsOf(traffic[1])).toEqual({ threadId, turnId: answer.turnId });
      const [, completed] = compactionItems(traffic);
      expect(completed).toMatchObject({
        turnId: answer.turnId,
        status: 'completed',
        payload: { trigger: 'manual', summary: 'SUMMARY-M' },
      });
      const done = completedOf(traffic);
      expect(done).toMatchObject({ threadId, turnId: answer.turnId, status: 'completed' });
      expect(done).not.toHaveProperty('finalOutput');
      expect(sandbox.model.requests[2].body).not.toHaveProperty('tools');

      const snapshot = await session.call<{ turns: Array<Record<string, unknown>> }>('thread/read', {
        threadId,
      });
      expect(snapshot.turns[2]).toMatchObject({ turnId: answer.turnId, status: 'completed', input: [] });

      await plainTurn(session, threadId, 'third');
      expect(contents(3)[1]).toBe(`${SUMMARY_PREFIX}SUMMARY-M`);
      expect(contents(3).some((text) => text.startsWith('first'))).toBe(false);
      expect(contents(3).filter((text) => /^(second|third)/.test(text))).toHaveLength(2);
    });

    it('skips a thread with fewer than 2 user messages: completed, skipped, no summary and no model call', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      await plainTurn(session, threadId, 'only');
      const { turnId } = await session.call<{ turnId: string }>('thread/compact', { threadId });
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      const [started, completed] = compactionItems(traffic);
      expect(started).toMatchObject({ turnId, status: 'inProgress', payload: { trigger: 'manual' } });
      expect(completed.status).toBe('completed');
      expect(completed.payload).toEqual({
        trigger: 'manual',
        messagesBefore: 3,
        messagesAfter: 3,
        estimatedTokensBefore: expect.any(Number),
        estimatedTokensAfter: expect.any(Number),
        skipped: true,
      });
      expect(completedOf(traffic)).toMatchObject({ status: 'completed' });
      expect(sandbox.model.requests).toHaveLength(1);
    });

    it('answers like turn/start: -32602 while a turn runs, -32020 unknown, -32021 archived', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      sandbox.model.enqueue(hangingTextReply(['thinking']));
      await session.call('turn/start', { threadId, input: textInput('hi') });
      await sandbox.model.waitForRequests(1);
      expect(await session.failure('thread/compact', { threadId })).toEqual({
        code: -32602,
        message: 'Thread already has an active turn',
      });
      expect(await session.failure('thread/compact', { threadId: UNKNOWN_THREAD })).toEqual({
        code: -32020,
        message: 'Thread not found',
      });
      const other = await session.startThread();
      await session.call('thread/archive', { threadId: other.threadId });
      expect(await session.failure('thread/compact', { threadId: other.threadId })).toMatchObject({
        code: -32021,
      });
      expect(await session.failure('thread/compact', {})).toMatchObject({ code: -32602 });
    });

    it('a failing summary call fails the item and the turn with the error; the history is unchanged', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      await plainTurn(session, threadId, 'first');
      await plainTurn(session, threadId, 'second');
      sandbox.model.enqueue(refused);
      await session.call('thread/compact', { threadId });
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      const [, failed] = compactionItems(traffic);
      expect(failed).toMatchObject({
        status: 'failed',
        payload: { trigger: 'manual', error: expect.any(String) },
      });
      const done = completedOf(traffic);
      expect(done).toMatchObject({ status: 'failed', error: (failed.payload as { error: string }).error });
      expect(
        traffic.some((m) => paramsOf(m).type === 'agentMessage' || paramsOf(m).type === 'userMessage'),
      ).toBe(false);

      // A short message keeps the next call under 80 %: it shows the stored history as it is.
      sandbox.model.enqueue(finishReply('done third'));
      await session.call('turn/start', { threadId, input: textInput('third, short') });
      await session.collectUntil(isTurnCompleted(threadId));
      expect(sandbox.model.requests).toHaveLength(4);
      expect(contents(3).some((text) => text.startsWith(SUMMARY_PREFIX))).toBe(false);
      expect(contents(3).filter((text) => /^(first|second|third)/.test(text))).toHaveLength(3);
    });
  });
});
