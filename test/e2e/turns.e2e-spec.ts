/**
 * Turns, items and replay end to end (docs/spec/protocol.md §3.9–§3.12, §4.5–§4.13, §5.3–§5.7, §7.5, §8, §14.1):
 * the real CLI over stdio, a real store (a sqlite file in a temp dir, then a PostgreSQL database) and
 * a real HTTP model server on 127.0.0.1 streaming chat-completions chunks. Build first (`npm run build`).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from '../helpers/fake-openai-server';
import {
  E2eSandbox,
  ID_PATTERN,
  describeMessage,
  isMethod,
  isTurnCompleted,
  lastItemStates,
  paramsOf,
  eventually,
  type AppServerSession,
  type JsonMessage,
  type SpawnOptions,
  currentTransport,
  storeDriversForTransport,
} from '../helpers/app-server-session';
import {
  assistantReply,
  finishReply,
  gate,
  hangingTextReply,
  providerUsage,
  requestMessages,
} from '../helpers/model-replies';
import { countItemRows } from '../helpers/store-rows';

jest.setTimeout(45_000);

const textInput = (text: string) => [{ type: 'text', text }];

const FINISH_METADATA = {
  sideEffect: 'none',
  idempotency: 'supported',
  terminal: true,
  capabilityTags: [],
  costDimensions: [],
};

const anyInt = () => expect.any(Number);

function errorOf(code: number, message: string) {
  return { code, message };
}

/** §14.1's tokenUsage for one call reporting 812/38 tokens with 768 cached. */
const TOKEN_USAGE_14_1 = {
  schema_version: 'vv-agent.task-token-usage.v1',
  input_tokens: 812,
  output_tokens: 38,
  total_tokens: 850,
  reasoning_tokens: null,
  cache_usage: {
    status: 'provider_reported',
    read_input_tokens: 768,
    write_input_tokens: null,
    uncached_input_tokens: 44,
    source: 'aggregate',
  },
  cycles: [
    {
      cycle_index: 1,
      usage: {
        schema_version: 'vv-agent.token-usage.v1',
        input_tokens: 812,
        output_tokens: 38,
        total_tokens: 850,
        reasoning_tokens: null,
        usage_source: 'provider_reported',
        cache_usage: {
          status: 'provider_reported',
          read_input_tokens: 768,
          write_input_tokens: null,
          uncached_input_tokens: 44,
          source: 'provider_usage',
        },
        provider_usage: {
          prompt_tokens: 812,
          completion_tokens: 38,
          total_tokens: 850,
          prompt_tokens_details: { cached_tokens: 768 },
        },
      },
    },
  ],
};

function expectIntegerTimestamps(state: Record<string, unknown>): void {
  for (const key of ['createdAt', 'updatedAt', 'startedAt', 'completedAt', 'archivedAt']) {
    const value = state[key];
    if (value !== undefined && value !== null) expect(Number.isInteger(value)).toBe(true);
  }
}

/** The text of the last `user` message of a recorded model request. */
function lastUserText(request: RecordedRequest): string {
  const users = requestMessages(request.body).filter((m) => m.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

// docs/spec/postgres.md §1: every turn writes threads, turns and items, so the suite runs on both drivers.
describe.each(storeDriversForTransport())(`turns over ${currentTransport()} [%s store]`, (storeDriver) => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-turns-e2e-', { storeDriver });
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  async function ready(options?: SpawnOptions): Promise<AppServerSession> {
    const session = sandbox.spawn(options);
    await session.initialize();
    return session;
  }

  /**
   * `it` on SQLite only, for the tests whose subject sits above the store and reads nothing back
   * from it (the per-connection notification opt-out, the scripted model hook, killing a tool's
   * process): on PostgreSQL they would only repeat the SQLite run and lengthen CI.
   */
  const aboveStoreIt: jest.It = storeDriver === 'sqlite' ? it : it.skip;

  describe('a turn that finishes with task_finish (§14.1)', () => {
    it('emits the exact notification order and payloads, and thread/read replays the last states', async () => {
      const answer = 'The workspace contains a README and a src/ folder with 4 TypeScript files.';
      sandbox.model.enqueue(
        finishReply(answer, {
          content: ['The workspace contains', ' a README and a src/ folder with 4 TypeScript files.'],
          usage: providerUsage(812, 38, 768),
          callId: 'call_k2Jd81fQ',
        }),
      );
      mkdirSync(join(sandbox.root, 'workspace'));
      const session = await ready();

      const threadParams = {
        agentKey: 'default',
        cwd: './workspace',
        metadata: { title: 'Investigate repo' },
      };
      const started = await session.call<Record<string, unknown>>('thread/start', threadParams);
      expect(started).toEqual({
        threadId: expect.stringMatching(ID_PATTERN.thread),
        agentKey: 'default',
        cwd: './workspace',
        status: 'idle',
      });
      const threadId = String(started.threadId);
      expect(await session.next()).toEqual({ jsonrpc: '2.0', method: 'thread/started', params: started });

      const input = textInput('Summarize the workspace');
      const turn = await session.call<Record<string, unknown>>('turn/start', { threadId, input });
      expect(turn).toEqual({ threadId, turnId: expect.stringMatching(ID_PATTERN.turn), status: 'running' });
      const turnId = String(turn.turnId);

      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      expect(traffic.map(describeMessage)).toEqual([
        'thread/status/changed(running)',
        'turn/started',
        'item/completed(userMessage)',
        'item/started(agentMessage)',
        'item/agentMessage/delta(agentMessage)',
        'item/agentMessage/delta(agentMessage)',
        'item/completed(agentMessage)',
        'item/started(toolCall)',
        'item/toolCall/delta(toolCall)',
        'item/completed(toolCall)',
        'thread/status/changed(idle)',
        'turn/completed',
      ]);
      for (const message of traffic) {
        expect(message.jsonrpc).toBe('2.0');
        expect('id' in message).toBe(false);
      }
      // The response precedes the turn's first notification (§3.9 step 9).
      const received = session.child.received;
      const responseIndex = received.findIndex(
        (m) => !('method' in m) && (m.result as Record<string, unknown> | undefined)?.turnId === turnId,
      );
      expect(responseIndex).toBeGreaterThanOrEqual(0);
      expect(responseIndex).toBeLessThan(received.indexOf(traffic[0]));

      const p = traffic.map(paramsOf);
      expect(p[0]).toEqual({ threadId, status: 'running' });
      expect(p[1]).toEqual({ threadId, turnId });
      expect(p[2]).toEqual({
        itemId: expect.stringMatching(ID_PATTERN.item),
        threadId,
        turnId,
        type: 'userMessage',
        status: 'completed',
        payload: { text: 'Summarize the workspace', input },
        createdAt: anyInt(),
        updatedAt: anyInt(),
      });

      const agentItemId = p[3].itemId;
      expect(agentItemId).toEqual(expect.stringMatching(ID_PATTERN.item));
      expect(agentItemId).not.toBe(p[2].itemId);
      const agentBase = {
        itemId: agentItemId,
        threadId,
        turnId,
        type: 'agentMessage',
        createdAt: p[3].createdAt,
      };
      expect(p[3]).toEqual({
        ...agentBase,
        status: 'inProgress',
        payload: { text: '' },
        updatedAt: anyInt(),
      });
      expect(p[4]).toEqual({
        ...agentBase,
        status: 'inProgress',
        payload: { text: 'The workspace contains' },
        updatedAt: anyInt(),
        delta: 'The workspace contains',
      });
      expect(p[5]).toEqual({
        ...agentBase,
        status: 'inProgress',
        payload: { text: ' a README and a src/ folder with 4 TypeScript files.' },
        updatedAt: anyInt(),
        delta: ' a README and a src/ folder with 4 TypeScript files.',
      });
      expect(p[6]).toEqual({
        ...agentBase,
        status: 'completed',
        payload: { text: answer },
        updatedAt: anyInt(),
      });

      const toolItemId = p[7].itemId;
      const toolStartPayload = {
        toolCallId: 'call_k2Jd81fQ',
        toolName: 'task_finish',
        arguments: { message: answer },
        toolMetadata: FINISH_METADATA,
      };
      const toolBase = { itemId: toolItemId, threadId, turnId, type: 'toolCall', createdAt: p[7].createdAt };
      expect(toolItemId).toEqual(expect.stringMatching(ID_PATTERN.item));
      expect(p[7]).toEqual({
        ...toolBase,
        status: 'inProgress',
        payload: toolStartPayload,
        updatedAt: anyInt(),
      });
      expect(p[8]).toEqual({
        ...toolBase,
        status: 'inProgress',
        payload: toolStartPayload,
        updatedAt: p[7].updatedAt,
        delta: { message: answer },
      });
      expect(p[9]).toEqual({
        ...toolBase,
        status: 'completed',
        payload: {
          ...toolStartPayload,
          status: 'success',
          directive: 'finish',
          errorCode: null,
          executionStarted: true,
          durationMs: anyInt(),
          output: JSON.stringify({ ok: true, message: answer }),
          outputTruncated: false,
        },
        updatedAt: anyInt(),
      });
      expect(p[10]).toEqual({ threadId, status: 'idle' });
      expect(p[11]).toEqual({
        threadId,
        turnId,
        runId: expect.stringMatching(ID_PATTERN.run),
        status: 'completed',
        finalOutput: answer,
        completionReason: 'tool_finish',
        completionToolName: 'task_finish',
        tokenUsage: TOKEN_USAGE_14_1,
      });
      for (const params of p) expectIntegerTimestamps(params);
      // updatedAt never goes backwards within an item.
      expect(Number(p[6].updatedAt)).toBeGreaterThanOrEqual(Number(p[3].updatedAt));

      // The model saw the production tools in order and the user message after the system prompt (§12.4).
      const [request] = sandbox.model.requests;
      expect(request.body?.model).toBe('test-model');
      expect(request.body?.stream).toBe(true);
      const tools = (request.body?.tools as Array<{ function: { name: string } }>).map(
        (t) => t.function.name,
      );
      expect(tools).toEqual([
        'task_finish',
        'ask_user',
        'find_files',
        'file_info',
        'read_file',
        'write_file',
        'edit_file',
        'search_files',
        'todo_write',
        'bash',
      ]);
      expect(requestMessages(request.body).map((m) => m.role)).toEqual(['system', 'user']);
      expect(lastUserText(request)).toBe('Summarize the workspace');

      // Replay equals live: each item once, in its latest state, equal to its last notification (§8.5).
      const read = await session.call<Record<string, unknown>>('thread/read', { threadId });
      const completed = p[11];
      expect(read).toEqual({
        thread: {
          threadId,
          agentKey: 'default',
          cwd: './workspace',
          status: 'idle',
          metadata: { title: 'Investigate repo' },
          createdAt: anyInt(),
          updatedAt: anyInt(),
          archivedAt: null,
          forkedFrom: null,
          sandbox: 'workspace-write',
        },
        turns: [
          {
            turnId,
            threadId,
            runId: completed.runId,
            status: 'completed',
            startedAt: anyInt(),
            completedAt: anyInt(),
            input,
            result: {
              finalOutput: answer,
              completionReason: 'tool_finish',
              completionToolName: 'task_finish',
              tokenUsage: TOKEN_USAGE_14_1,
            },
            sandbox: 'workspace-write',
          },
        ],
        items: lastItemStates(traffic),
      });
      const readTurn = (read.turns as Array<Record<string, unknown>>)[0];
      expect(Number(readTurn.completedAt)).toBeGreaterThanOrEqual(Number(readTurn.startedAt));
      expectIntegerTimestamps(read.thread as Record<string, unknown>);
      expectIntegerTimestamps(readTurn);

      expect(session.expectCleanStdout().filter((m) => 'error' in m)).toEqual([]);
    });
  });

  describe('steering, follow-ups and interrupts', () => {
    it('delivers turn/steer to the next model call as a steered userMessage (§3.10)', async () => {
      const hold = gate();
      sandbox.model.enqueue(
        finishReply('first attempt', {
          content: ['Working on it'],
          gate: hold.promise,
          callId: 'call_first',
        }),
        finishReply('Done with the tests', { content: ['Done with the tests'], callId: 'call_second' }),
      );
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('Fix the bug'),
      });
      await session.waitFor(isMethod('item/agentMessage/delta'));

      const steerInput = textInput('Also run the tests');
      expect(
        await session.call('turn/steer', { threadId, expectedTurnId: turnId, input: steerInput }),
      ).toEqual({
        threadId,
        turnId,
        queued: true,
      });
      // An input whose derived text is empty is accepted and dropped (§3.10).
      expect(await session.call('turn/steer', { threadId, input: [] })).toEqual({
        threadId,
        turnId,
        queued: true,
      });
      hold.open();
      const traffic = await session.collectUntil(isTurnCompleted(threadId));

      // The steering text reached the model in its next request, after cycle 1's assistant message.
      const requests = await sandbox.model.waitForRequests(2);
      expect(requests).toHaveLength(2);
      const second = requestMessages(requests[1].body);
      expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
      expect(second[4]).toEqual({ role: 'user', content: 'Also run the tests' });

      // The task_finish planned while the steer was queued was skipped, not executed (§3.10).
      const skipped = traffic.filter(
        (m) =>
          m.method === 'item/completed' &&
          (paramsOf(m).payload as Record<string, unknown>).toolCallId === 'call_first',
      );
      expect(skipped).toHaveLength(1);
      expect(paramsOf(skipped[0])).toMatchObject({ type: 'toolCall', status: 'failed' });
      const skippedPayload = paramsOf(skipped[0]).payload as Record<string, unknown>;
      expect(skippedPayload).toMatchObject({
        toolCallId: 'call_first',
        toolName: 'task_finish',
        errorCode: 'skipped_due_to_steering',
        executionStarted: false,
        durationMs: null,
      });
      expect(skippedPayload).not.toHaveProperty('arguments');
      expect(
        traffic.some(
          (m) =>
            m.method === 'item/started' &&
            (paramsOf(m).payload as Record<string, unknown>).toolCallId === 'call_first',
        ),
      ).toBe(false);

      const steered = traffic.filter(
        (m) =>
          m.method === 'item/completed' &&
          paramsOf(m).type === 'userMessage' &&
          paramsOf(m).turnId === turnId,
      );
      expect(steered.map((m) => paramsOf(m).payload as Record<string, unknown>)).toEqual([
        { text: 'Fix the bug', input: textInput('Fix the bug') },
        { text: 'Also run the tests', input: steerInput, steered: true },
      ]);
      // The steered message is announced before the second model call's assistant text.
      const steeredIndex = traffic.indexOf(steered[1]);
      const secondAgent = traffic.findIndex(
        (m) =>
          m.method === 'item/started' &&
          paramsOf(m).type === 'agentMessage' &&
          traffic.indexOf(m) > traffic.indexOf(skipped[0]),
      );
      expect(steeredIndex).toBeLessThan(secondAgent);
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
        status: 'completed',
        finalOutput: 'Done with the tests',
      });

      // Steering is not part of the turn's input; replay keeps the steered item.
      const read = await session.call<{ turns: Array<Record<string, unknown>>; items: unknown[] }>(
        'thread/read',
        {
          threadId,
        },
      );
      expect(read.turns[0].input).toEqual(textInput('Fix the bug'));
      expect(read.items).toEqual(lastItemStates(traffic));
    });

    it('starts a queued follow-up right after turn/completed, owned by the same connection (§3.11)', async () => {
      const hold = gate();
      sandbox.model.enqueue(
        finishReply('first done', { content: ['first done'], gate: hold.promise }),
        finishReply('second done', { content: ['second done'] }),
      );
      const session = await ready();
      const { threadId } = await session.startThread();
      const first = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('one'),
      });
      const followUpInput = [
        { type: 'text', text: 'two' },
        { type: 'image', url: 'https://example.invalid/a.png' },
      ];
      expect(
        await session.call('turn/followUp', { threadId, expectedTurnId: first.turnId, input: followUpInput }),
      ).toEqual({ threadId, turnId: first.turnId, queued: true });
      hold.open();

      const firstTraffic = await session.collectUntil(isTurnCompleted(threadId));
      expect(paramsOf(firstTraffic[firstTraffic.length - 1])).toMatchObject({
        turnId: first.turnId,
        status: 'completed',
      });
      const secondTraffic = await session.collectUntil(isTurnCompleted(threadId));
      const secondTurnId = paramsOf(secondTraffic[1]).turnId;
      expect(secondTurnId).toEqual(expect.stringMatching(ID_PATTERN.turn));
      expect(secondTurnId).not.toBe(first.turnId);
      expect(secondTraffic.slice(0, 3).map(describeMessage)).toEqual([
        'thread/status/changed(running)',
        'turn/started',
        'item/completed(userMessage)',
      ]);
      expect(paramsOf(secondTraffic[2]).payload).toEqual({
        text: 'two\n{"type":"image","url":"https://example.invalid/a.png"}',
        input: followUpInput,
      });
      expect(paramsOf(secondTraffic[secondTraffic.length - 1])).toMatchObject({
        turnId: secondTurnId,
        status: 'completed',
        finalOutput: 'second done',
      });
      // The next turn starts right after the previous turn/completed: no message in between.
      const received = session.child.received;
      const firstCompleted = received.indexOf(firstTraffic[firstTraffic.length - 1]);
      expect(received[firstCompleted + 1]).toBe(secondTraffic[0]);

      const read = await session.call<{ turns: Array<Record<string, unknown>> }>('thread/read', { threadId });
      expect(read.turns.map((t) => [t.turnId, t.status, t.input])).toEqual([
        [first.turnId, 'completed', textInput('one')],
        [secondTurnId, 'completed', followUpInput],
      ]);
    });

    it('interrupts a streaming turn: interrupted/cancelled, the model socket closed (§3.12)', async () => {
      sandbox.model.enqueue(hangingTextReply(['Thinking']));
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('Go'),
      });
      const delta = await session.waitFor(isMethod('item/agentMessage/delta'));

      // Two pipelined interrupts: the second answers cancelled:true again while the turn has not ended
      // (its response precedes turn/completed), else -32030 (§3.12).
      session.send({
        jsonrpc: '2.0',
        id: 'int-1',
        method: 'turn/interrupt',
        params: { threadId, expectedTurnId: turnId },
      });
      session.send({ jsonrpc: '2.0', id: 'int-2', method: 'turn/interrupt', params: { threadId } });
      const all = await session.collectUntil(isTurnCompleted(threadId));
      const first = all.find((m) => m.id === 'int-1');
      expect(first).toEqual({ jsonrpc: '2.0', id: 'int-1', result: { threadId, turnId, cancelled: true } });
      const secondIndex = all.findIndex((m) => m.id === 'int-2');
      if (secondIndex !== -1) {
        expect(all[secondIndex]).toEqual({
          jsonrpc: '2.0',
          id: 'int-2',
          result: { threadId, turnId, cancelled: true },
        });
      } else {
        expect(await session.waitFor((m) => m.id === 'int-2')).toEqual({
          jsonrpc: '2.0',
          id: 'int-2',
          error: errorOf(-32030, 'Active turn not found'),
        });
      }
      const traffic = all.filter((m) => 'method' in m);
      const agentCompleted = traffic.find(
        (m) => m.method === 'item/completed' && paramsOf(m).type === 'agentMessage',
      );
      expect(agentCompleted && paramsOf(agentCompleted)).toMatchObject({
        itemId: paramsOf(delta).itemId,
        status: 'interrupted',
        payload: { text: 'Thinking' },
      });
      expect(traffic.slice(-2).map(describeMessage)).toEqual([
        'thread/status/changed(idle)',
        'turn/completed',
      ]);
      // partialOutput is not asserted: whether aborted streamed text counts is the runtime's call.
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
        threadId,
        turnId,
        runId: expect.stringMatching(ID_PATTERN.run),
        status: 'interrupted',
        finalOutput: 'turn interrupted',
        error: 'turn interrupted',
        completionReason: 'cancelled',
        tokenUsage: expect.objectContaining({ schema_version: 'vv-agent.task-token-usage.v1' }),
      });

      // The in-flight model request was aborted: the socket closed before the response completed.
      const closed = await sandbox.model.requests[0].closed;
      expect(closed.completed).toBe(false);

      const read = await session.call<{
        thread: Record<string, unknown>;
        turns: Array<Record<string, unknown>>;
      }>('thread/read', { threadId });
      expect(read.thread.status).toBe('idle');
      expect(read.turns[0]).toMatchObject({
        status: 'interrupted',
        result: { error: 'turn interrupted', completionReason: 'cancelled' },
      });
      expect(await session.failure('turn/interrupt', { threadId })).toEqual(
        errorOf(-32030, 'Active turn not found'),
      );
    });

    it('uses the trimmed interrupt reason as the turn error', async () => {
      sandbox.model.enqueue(hangingTextReply(['Hmm']));
      const session = await ready();
      const { threadId } = await session.startThread();
      await session.call('turn/start', { threadId, input: textInput('Go') });
      await session.waitFor(isMethod('item/agentMessage/delta'));
      await session.call('turn/interrupt', { threadId, reason: '  user pressed stop  ' });
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
        status: 'interrupted',
        completionReason: 'cancelled',
        error: 'user pressed stop',
      });

      // The interrupted run's messages are still history for the next turn (§8.10, every terminal status).
      sandbox.model.enqueue(finishReply('resumed', { content: ['resumed'] }));
      await session.call('turn/start', { threadId, input: textInput('Continue please') });
      await session.collectUntil(isTurnCompleted(threadId));
      const messages = requestMessages(sandbox.model.requests[1].body);
      expect(messages[1]).toEqual({ role: 'user', content: 'Go' });
      expect(messages[messages.length - 1]).toEqual({ role: 'user', content: 'Continue please' });
    });
  });

  describe('turn errors', () => {
    it('rejects a second turn on a busy thread (-32602) and checks -32030/-32031 for steer, followUp, interrupt', async () => {
      const hold = gate();
      sandbox.model.enqueue(finishReply('ok', { content: ['ok'], gate: hold.promise }));
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('a'),
      });

      expect(await session.failure('turn/start', { threadId, input: textInput('b') })).toEqual(
        errorOf(-32602, 'Thread already has an active turn'),
      );
      const wrong = 'turn_00000000000000000000000000000000';
      for (const method of ['turn/steer', 'turn/followUp']) {
        expect(
          await session.failure(method, { threadId, expectedTurnId: wrong, input: textInput('x') }),
        ).toEqual(errorOf(-32031, 'Turn id mismatch'));
      }
      expect(await session.failure('turn/interrupt', { threadId, expectedTurnId: wrong })).toEqual(
        errorOf(-32031, 'Turn id mismatch'),
      );
      const unknownThread = 'thread_00000000000000000000000000000000';
      for (const method of ['turn/steer', 'turn/followUp']) {
        expect(await session.failure(method, { threadId: unknownThread, input: textInput('x') })).toEqual(
          errorOf(-32030, 'Active turn not found'),
        );
      }
      expect(await session.failure('turn/interrupt', { threadId: unknownThread })).toEqual(
        errorOf(-32030, 'Active turn not found'),
      );
      // Validation comes first (§3.0 check order).
      expect(await session.failure('turn/steer', { threadId, expectedTurnId: null, input: [] })).toEqual({
        code: -32602,
        message: 'Invalid params: /expectedTurnId must be a string',
        data: { errors: [{ path: '/expectedTurnId', message: 'must be a string' }] },
      });
      const badInput = await session.failure('turn/start', { threadId, input: ['text'] });
      expect(badInput).toMatchObject({ code: -32602, message: 'input must be a list of objects' });
      expect((badInput.data as { errors: Array<{ path: string }> }).errors[0].path).toMatch(/^\/input/);
      expect(await session.failure('turn/start')).toEqual(errorOf(-32602, 'Missing params'));

      hold.open();
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ turnId, status: 'completed' });
      // A rejected turn/start created nothing: one turn only.
      const read = await session.call<{ turns: unknown[] }>('thread/read', { threadId });
      expect(read.turns).toHaveLength(1);
      for (const method of ['turn/steer', 'turn/followUp']) {
        expect(await session.failure(method, { threadId, input: textInput('late') })).toEqual(
          errorOf(-32030, 'Active turn not found'),
        );
      }
    });

    it('fails the turn when the model answers HTTP 500 forever: error item and error/warning run_failed', async () => {
      sandbox.model.setFallback({ type: 'response', status: 500, body: 'upstream exploded' });
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('hi'),
      });
      const traffic = await session.collectUntil(isTurnCompleted(threadId), 30_000);
      const message =
        'llm request failed: all endpoint targets failed: fake: HTTP 500: upstream exploded (attempt 3)';

      expect(traffic.map(describeMessage)).toEqual([
        'thread/status/changed(running)',
        'turn/started',
        'item/completed(userMessage)',
        'item/completed(error)',
        'error/warning',
        'thread/status/changed(idle)',
        'turn/completed',
      ]);
      expect(paramsOf(traffic[3])).toEqual({
        itemId: expect.stringMatching(ID_PATTERN.item),
        threadId,
        turnId,
        type: 'error',
        status: 'completed',
        payload: { message },
        createdAt: anyInt(),
        updatedAt: anyInt(),
      });
      expect(paramsOf(traffic[4])).toEqual({ threadId, turnId, code: 'run_failed', message });
      expect(paramsOf(traffic[6])).toEqual({
        threadId,
        turnId,
        runId: expect.stringMatching(ID_PATTERN.run),
        status: 'failed',
        finalOutput: message,
        error: message,
        completionReason: 'failed',
        tokenUsage: expect.objectContaining({ schema_version: 'vv-agent.task-token-usage.v1' }),
      });
      // Retried on the same endpoint up to 3 attempts in total (docs/spec/runtime.md §14.4).
      expect(sandbox.model.requests).toHaveLength(3);

      const read = await session.call<{
        thread: Record<string, unknown>;
        turns: Array<Record<string, unknown>>;
        items: unknown[];
      }>('thread/read', { threadId });
      expect(read.thread.status).toBe('idle');
      expect(read.turns[0]).toMatchObject({
        status: 'failed',
        result: { error: message, completionReason: 'failed' },
      });
      expect(read.items).toEqual(lastItemStates(traffic));
    });
  });

  describe('conversation history and persistence', () => {
    it("sends turn 1's user and assistant messages to the model in turn 2 (§8.10)", async () => {
      sandbox.model.enqueue(
        finishReply('Paris is the capital.', { content: ['Paris is the capital.'] }),
        finishReply('About 2 million.', { content: ['About 2 million.'] }),
      );
      const session = await ready();
      const { threadId } = await session.startThread();
      await session.call('turn/start', { threadId, input: textInput('What is the capital of France?') });
      await session.collectUntil(isTurnCompleted(threadId));
      await session.call('turn/start', { threadId, input: textInput('How many people live there?') });
      await session.collectUntil(isTurnCompleted(threadId));

      const requests = sandbox.model.requests;
      expect(requests).toHaveLength(2);
      const messages = requestMessages(requests[1].body);
      expect(messages[0].role).toBe('system');
      expect(messages[1]).toEqual({ role: 'user', content: 'What is the capital of France?' });
      expect(messages).toContainEqual(
        expect.objectContaining({ role: 'assistant', content: 'Paris is the capital.' }),
      );
      expect(messages[messages.length - 1]).toEqual({ role: 'user', content: 'How many people live there?' });
      expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
    });

    it('recovers a turn killed with SIGKILL on restart: interrupted, thread idle, items replayed (§8.11)', async () => {
      sandbox.model.enqueue(hangingTextReply(['Partial answer']));
      const first = await ready({ store: 'store.sqlite' });
      const { threadId } = await first.startThread();
      const { turnId } = await first.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('First question'),
      });
      const live = await first.collectUntil(isMethod('item/agentMessage/delta'));
      // Items are written at creation (§8.5): wait until both rows are committed before the crash.
      await eventually(async () =>
        (await countItemRows(sandbox.storePath('store.sqlite'), threadId)) === 2 ? true : undefined,
      );
      first.child.kill('SIGKILL');
      expect((await first.child.waitExit()).signal).toBe('SIGKILL');

      const second = await ready({ store: 'store.sqlite' });
      const read = await second.call<{
        thread: Record<string, unknown>;
        turns: Array<Record<string, unknown>>;
        items: Array<Record<string, unknown>>;
      }>('thread/read', { threadId });
      expect(read.thread.status).toBe('idle');
      expect(read.turns).toEqual([
        {
          turnId,
          threadId,
          runId: expect.stringMatching(ID_PATTERN.run),
          status: 'interrupted',
          startedAt: anyInt(),
          completedAt: anyInt(),
          input: textInput('First question'),
          result: { error: 'server restarted before the turn finished' },
          sandbox: 'workspace-write',
        },
      ]);
      const liveUser = live.find((m) => m.method === 'item/completed' && paramsOf(m).type === 'userMessage');
      const liveAgent = live.find((m) => m.method === 'item/started' && paramsOf(m).type === 'agentMessage');
      expect(read.items).toHaveLength(2);
      expect(read.items[0]).toEqual(liveUser && paramsOf(liveUser));
      const agent = read.items[1];
      expect(agent).toMatchObject({
        itemId: liveAgent && paramsOf(liveAgent).itemId,
        type: 'agentMessage',
        status: 'interrupted',
        createdAt: liveAgent && paramsOf(liveAgent).createdAt,
      });
      expect('Partial answer'.startsWith(String((agent.payload as Record<string, unknown>).text))).toBe(true);
      // Recovery is an item update: it is newer than both items' creation (§8.8).
      const after = async (afterItemId: unknown) =>
        (await second.call<{ items: unknown[] }>('thread/read', { threadId, afterItemId })).items;
      expect(await after(read.items[0].itemId)).toEqual([agent]);
      expect(await after(agent.itemId)).toEqual([agent]);

      const list = await second.call<{ threads: Array<Record<string, unknown>> }>('thread/list', {});
      expect(list.threads.map((t) => [t.threadId, t.status])).toEqual([[threadId, 'idle']]);

      // The thread is usable again; the lost run's messages were not appended to its history.
      sandbox.model.enqueue(finishReply('fresh start', { content: ['fresh start'] }));
      await second.call('turn/start', { threadId, input: textInput('Second question') });
      const traffic = await second.collectUntil(isTurnCompleted(threadId));
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
        status: 'completed',
        finalOutput: 'fresh start',
      });
      const messages = requestMessages(sandbox.model.requests[1].body);
      expect(messages.map((m) => m.content)).not.toContain('First question');
      expect(messages[messages.length - 1]).toEqual({ role: 'user', content: 'Second question' });
    });
  });

  describe('two processes sharing one store', () => {
    it('leaves a running turn owned by a live process untouched when another process opens the store (§8.11)', async () => {
      sandbox.model.enqueue(hangingTextReply(['Still going']));
      const owner = await ready({ store: 'shared.sqlite' });
      const { threadId } = await owner.startThread();
      const { turnId } = await owner.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('long task'),
      });
      await owner.waitFor(isMethod('item/agentMessage/delta'));

      const other = await ready({ store: 'shared.sqlite' });
      const read = await other.call<{ turns: Array<Record<string, unknown>> }>('thread/read', { threadId });
      expect(read.turns).toEqual([
        expect.objectContaining({ turnId, status: 'running', completedAt: null, result: {} }),
      ]);

      // The owner still finishes its own turn normally.
      await owner.call('turn/interrupt', { threadId });
      const traffic = await owner.collectUntil(isTurnCompleted(threadId));
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ turnId, status: 'interrupted' });
    });
  });

  describe('many threads', () => {
    it('runs 200 threads in one process, each turn answered from its own input', async () => {
      const COUNT = 200;
      sandbox.model.setFallback((request) => {
        const text = lastUserText(request);
        return finishReply(`echo: ${text}`, { content: [`echo: ${text}`] });
      });
      const session = await ready();

      const threadIds: string[] = [];
      for (let batch = 0; batch < COUNT; batch += 50) {
        const pending = [];
        for (let i = batch; i < batch + 50; i += 1)
          pending.push(session.call<{ threadId: string }>('thread/start', { metadata: { n: i } }));
        threadIds.push(...(await Promise.all(pending)).map((r) => r.threadId));
      }
      expect(new Set(threadIds).size).toBe(COUNT);

      for (let batch = 0; batch < COUNT; batch += 50) {
        const pending = [];
        for (let i = batch; i < batch + 50; i += 1) {
          pending.push(session.call('turn/start', { threadId: threadIds[i], input: textInput(`task ${i}`) }));
        }
        await Promise.all(pending);
      }

      const perThread = new Map<string, JsonMessage[]>();
      let completed = 0;
      await session.collectUntil((m) => {
        const threadId = String(paramsOf(m).threadId);
        if (!perThread.has(threadId)) perThread.set(threadId, []);
        perThread.get(threadId)?.push(m);
        if (m.method === 'turn/completed') completed += 1;
        return completed === COUNT;
      }, 40_000);

      threadIds.forEach((threadId, i) => {
        const traffic = (perThread.get(threadId) ?? []).filter((m) => m.method !== 'thread/started');
        expect(traffic.map(describeMessage)).toEqual([
          'thread/status/changed(running)',
          'turn/started',
          'item/completed(userMessage)',
          'item/started(agentMessage)',
          'item/agentMessage/delta(agentMessage)',
          'item/completed(agentMessage)',
          'item/started(toolCall)',
          'item/toolCall/delta(toolCall)',
          'item/completed(toolCall)',
          'thread/status/changed(idle)',
          'turn/completed',
        ]);
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
          status: 'completed',
          finalOutput: `echo: task ${i}`,
        });
      });

      const listed: Array<Record<string, unknown>> = [];
      let cursor: string | null = null;
      do {
        const page: { threads: Array<Record<string, unknown>>; nextCursor: string | null } =
          await session.call('thread/list', cursor === null ? { limit: 50 } : { limit: 50, cursor });
        listed.push(...page.threads);
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(listed).toHaveLength(COUNT);
      const firstPage = await session.call<{ threads: unknown[]; nextCursor: string | null }>('thread/list');
      expect(firstPage.threads).toHaveLength(50);
      expect(firstPage.nextCursor).toEqual(expect.any(String));
      expect(new Set(listed.map((t) => t.threadId))).toEqual(new Set(threadIds));
      expect(listed.every((t) => t.status === 'idle')).toBe(true);
      expect(session.expectCleanStdout().filter((m) => 'error' in m)).toEqual([]);
    });
  });

  describe('terminal results', () => {
    it('adds a final agentMessage when the answer differs; ask_user ends the turn as wait_user (§8.4, §8.6)', async () => {
      sandbox.model.enqueue(
        finishReply('Result: 42', { content: ['Working'] }),
        assistantReply(
          [
            {
              id: 'call_ask',
              name: 'ask_user',
              arguments: { question: 'Which directory should I clean: build/ or dist/?' },
            },
          ],
          { content: ['I found two build output folders.'] },
        ),
      );
      const session = await ready();
      const { threadId } = await session.startThread();
      await session.call('turn/start', { threadId, input: textInput('compute') });
      const first = await session.collectUntil(isTurnCompleted(threadId));
      expect(first.slice(-5).map(describeMessage)).toEqual([
        'item/toolCall/delta(toolCall)',
        'item/completed(toolCall)',
        'item/completed(agentMessage)',
        'thread/status/changed(idle)',
        'turn/completed',
      ]);
      const final = paramsOf(first[first.length - 3]);
      expect(final).toMatchObject({
        type: 'agentMessage',
        status: 'completed',
        payload: { text: 'Result: 42', final: true },
      });
      expect(first.filter((m) => m.method === 'item/started' && paramsOf(m).itemId === final.itemId)).toEqual(
        [],
      );
      expect(paramsOf(first[first.length - 1])).toMatchObject({
        status: 'completed',
        finalOutput: 'Result: 42',
      });

      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('clean up'),
      });
      const second = await session.collectUntil(isTurnCompleted(threadId));
      const question = 'Which directory should I clean: build/ or dist/?';
      const ask = second.find(
        (m) =>
          m.method === 'item/completed' &&
          (paramsOf(m).payload as Record<string, unknown>).toolName === 'ask_user',
      );
      expect(ask && paramsOf(ask)).toMatchObject({
        status: 'completed',
        payload: { status: 'success', directive: 'wait_user', errorCode: null },
      });
      expect(paramsOf(second[second.length - 3])).toMatchObject({
        type: 'agentMessage',
        payload: { text: question, final: true },
      });
      const completed = paramsOf(second[second.length - 1]);
      expect(completed).toEqual({
        threadId,
        turnId,
        runId: expect.stringMatching(ID_PATTERN.run),
        status: 'interrupted',
        finalOutput: question,
        completionReason: 'wait_user',
        completionToolName: 'ask_user',
        partialOutput: 'I found two build output folders.',
        tokenUsage: expect.objectContaining({ schema_version: 'vv-agent.task-token-usage.v1' }),
      });
      const read = await session.call<{ turns: Array<Record<string, unknown>> }>('thread/read', { threadId });
      const { threadId: _t, turnId: _u, runId: _r, status: _s, ...result } = completed;
      expect(read.turns[1]).toMatchObject({ turnId, status: 'interrupted', result });
    });

    it('reports a follow-up that cannot start on an archived thread as error/warning follow_up (§3.11)', async () => {
      const hold = gate();
      sandbox.model.enqueue(finishReply('done', { content: ['done'], gate: hold.promise }));
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('one'),
      });
      await session.call('turn/followUp', { threadId, input: textInput('two') });
      await session.call('turn/followUp', { threadId, input: textInput('three') });
      await session.call('thread/archive', { threadId });
      hold.open();

      let warnings = 0;
      const traffic = await session.collectUntil((m) => m.method === 'error/warning' && ++warnings === 2);
      const tail = traffic.slice(traffic.findIndex((m) => m.method === 'turn/completed'));
      // The thread was archived meanwhile: no thread/status/changed(idle) (§4.4).
      expect(traffic.some((m) => m.method === 'thread/status/changed' && paramsOf(m).status === 'idle')).toBe(
        false,
      );
      expect(tail.map(describeMessage)).toEqual(['turn/completed', 'error/warning', 'error/warning']);
      expect(paramsOf(tail[0])).toMatchObject({ turnId, status: 'completed' });
      expect(tail.slice(1).map(paramsOf)).toEqual([
        { threadId, code: 'follow_up', message: 'Thread archived' },
        { threadId, code: 'follow_up', message: 'Thread archived' },
      ]);
      const read = await session.call<{ thread: Record<string, unknown>; turns: unknown[] }>('thread/read', {
        threadId,
      });
      expect(read.thread.status).toBe('archived');
      expect(read.turns).toHaveLength(1);
      expect(sandbox.model.requests).toHaveLength(1);
    });

    it('fails turn/start with -32603 when the thread cwd does not exist; the default ./workspace is created', async () => {
      sandbox.model.enqueue(finishReply('ok'));
      const session = await ready();
      const missing = await session.startThread({ cwd: 'missing-dir' });
      expect(
        await session.failure('turn/start', { threadId: missing.threadId, input: textInput('x') }),
      ).toEqual({
        code: -32603,
        message: `workspace directory not found: ${join(sandbox.root, 'missing-dir')}`,
      });
      expect(await session.drain()).toEqual([]);
      expect(
        (await session.call<{ turns: unknown[] }>('thread/read', { threadId: missing.threadId })).turns,
      ).toEqual([]);

      const { threadId } = await session.startThread();
      await session.call('turn/start', { threadId, input: textInput('x') });
      await session.collectUntil(isTurnCompleted(threadId));
      expect(existsSync(join(sandbox.root, 'workspace'))).toBe(true);
    });
  });

  describe('notification opt-out and the scripted model hook', () => {
    aboveStoreIt(
      'suppresses opted-out turn notifications while item states stay complete (§7.4)',
      async () => {
        sandbox.model.enqueue(finishReply('Hello there', { content: ['Hello', ' there'] }));
        const session = sandbox.spawn();
        await session.initialize({ optOutNotificationMethods: ['item/agentMessage/delta', 'turn/started'] });
        const { threadId } = await session.startThread();
        await session.call('turn/start', { threadId, input: textInput('hi') });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        expect(traffic.map(describeMessage)).toEqual([
          'thread/status/changed(running)',
          'item/completed(userMessage)',
          'item/started(agentMessage)',
          'item/completed(agentMessage)',
          'item/started(toolCall)',
          'item/toolCall/delta(toolCall)',
          'item/completed(toolCall)',
          'thread/status/changed(idle)',
          'turn/completed',
        ]);
        expect(paramsOf(traffic[3]).payload).toEqual({ text: 'Hello there' });
      },
    );

    aboveStoreIt(
      'VV_AGENT_SCRIPTED_MODEL_FILE replaces the HTTP client; model/list keeps the settings model (docs/spec/runtime.md §15.3)',
      async () => {
        const env = sandbox.scriptEnv([
          {
            content: 'Scripted hello',
            tool_calls: [{ id: 's1', name: 'task_finish', arguments: { message: 'Scripted hello' } }],
            usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
          },
        ]);
        const session = await ready({ env });
        expect(await session.call('model/list')).toEqual({
          models: [
            {
              id: 'test-model',
              provider: 'local',
              displayName: 'test-model',
              contextLength: 128000,
              supportsTools: true,
              metadata: { requestedModel: 'test-model' },
            },
          ],
        });
        const { threadId } = await session.startThread();
        await session.call('turn/start', { threadId, input: textInput('hi') });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const deltas = traffic.filter(isMethod('item/agentMessage/delta')).map((m) => paramsOf(m).delta);
        expect(deltas).toEqual(['Scripted hello']);
        const completed = paramsOf(traffic[traffic.length - 1]);
        expect(completed).toMatchObject({ status: 'completed', finalOutput: 'Scripted hello' });
        expect((completed.tokenUsage as Record<string, unknown>).input_tokens).toBe(10);

        // The script is consumed across turns: an empty queue fails the next turn.
        await session.call('turn/start', { threadId, input: textInput('again') });
        const failed = await session.collectUntil(isTurnCompleted(threadId));
        expect(paramsOf(failed[failed.length - 1])).toMatchObject({
          status: 'failed',
          error: 'scripted response queue is empty',
        });
        expect(sandbox.model.requests).toHaveLength(0);
      },
    );
  });

  describe('interrupting a running tool', () => {
    aboveStoreIt(
      'kills a running bash call: its item completes failed with tool_execution_cancelled',
      async () => {
        sandbox.model.enqueue(
          assistantReply([{ id: 'call_sleep', name: 'bash', arguments: { command: 'sleep 30' } }]),
        );
        const session = await ready({ args: ['--approval-policy', 'never'] });
        const { threadId } = await session.startThread();
        await session.call('turn/start', { threadId, input: textInput('wait') });
        const started = await session.waitFor(
          (m) => m.method === 'item/started' && paramsOf(m).type === 'toolCall',
        );
        await session.call('turn/interrupt', { threadId });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const done = traffic.filter(
          (m) => m.method === 'item/completed' && paramsOf(m).itemId === paramsOf(started).itemId,
        );
        expect(done).toHaveLength(1);
        expect(paramsOf(done[0])).toMatchObject({
          type: 'toolCall',
          status: 'failed',
          payload: { toolName: 'bash', errorCode: 'tool_execution_cancelled', executionStarted: true },
        });
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
          status: 'interrupted',
          completionReason: 'cancelled',
          error: 'turn interrupted',
        });
      },
    );
  });
});
