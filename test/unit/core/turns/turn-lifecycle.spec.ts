/**
 * A turn from turn/start to turn/completed through the real module, store and runtime (protocol.md
 * §3.9, §7.5, §8.3–§8.10): notification order, streamed deltas, item identity, replay equality,
 * conversation memory, and the errors of turn/start.
 */
import { hostname } from 'node:os';
import { TypeOrmAppServerStore } from '../../../../src/persistence/typeorm/app-server-store';
import type { AppServerHost } from '../../../../src/core/host/app-server-host';
import { DefaultAppServerHost } from '../../../../src/core/host/default-app-server-host';
import type { LlmRequest } from '../../../../src/runtime/model/types';
import type { Agent } from '../../../../src/runtime/agent';
import type { RunEvent } from '../../../../src/runtime/events/types';
import { finish, ScriptedModelProvider } from '../../../../src/runtime/model/scripted-model';
import type { RunConfig, RunHandle } from '../../../../src/runtime/run-config';
import { Runner, type RunStartOptions } from '../../../../src/runtime/runner';
import { processStartToken } from '../../../../src/persistence/sqlite';
import {
  CHUNK,
  gatedStep,
  LiveAppServer,
  recordingStep,
  runTurn,
  text,
  type WireMessage,
} from '../../support/live-app-server';

/** A runner whose event stream throws after the first few events (the run itself goes on). */
class BrokenStreamRunner extends Runner {
  override start(agent: Agent, input: string, config?: RunConfig, options?: RunStartOptions): RunHandle {
    const handle = super.start(agent, input, config, options);
    return {
      runId: handle.runId,
      traceId: handle.traceId,
      async *events(): AsyncGenerator<RunEvent> {
        let seen = 0;
        for await (const event of handle.events()) {
          yield event;
          seen += 1;
          if (seen === 3) throw new Error('journal exploded');
        }
      },
      result: () => handle.result(),
      cancel: (reason) => handle.cancel(reason),
      steer: (steerText) => handle.steer(steerText),
      followUp: (followUpText) => handle.followUp(followUpText),
      followUps: () => handle.followUps(),
      approve: (id, decision) => handle.approve(id, decision),
      state: () => handle.state(),
    };
  }
}

const ID = (prefix: string): RegExp => new RegExp(`^${prefix}_[0-9a-f]{32}$`);

describe('turn lifecycle', () => {
  let live: LiveAppServer;

  afterEach(async () => {
    await live?.close();
  });

  it('emits the exact order of a finishing turn, with chunk-only deltas and one itemId per item', async () => {
    live = await LiveAppServer.start({
      steps: [
        {
          content: `The workspace contains${CHUNK} a README.`,
          tool_calls: [{ id: 'call_fin', name: 'task_finish', arguments: { message: 'All done.' } }],
        },
      ],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const response = await client.request('turn/start', { threadId, input: text('Summarize the workspace') });
    const { turnId } = response.result as { turnId: string };
    expect(response.result).toEqual({ threadId, turnId, status: 'running' });
    expect(turnId).toMatch(ID('turn'));
    await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });

    expect(client.messages.slice(from).map((m) => (m.method === undefined ? 'response' : m.method))[0]).toBe(
      'response',
    );
    expect(client.labels(from)).toEqual([
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
      'item/completed(agentMessage)',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    const traffic = client.traffic(from);
    expect(traffic[0].params).toEqual({ threadId, status: 'running' });
    expect(traffic[1].params).toEqual({ threadId, turnId });

    const user = traffic[2].params as WireMessage;
    expect(user).toMatchObject({
      threadId,
      turnId,
      type: 'userMessage',
      status: 'completed',
      payload: { text: 'Summarize the workspace', input: text('Summarize the workspace') },
    });
    expect(user.itemId).toMatch(ID('item'));

    const [started, delta1, delta2, completed] = traffic.slice(3, 7).map((m) => m.params as WireMessage);
    expect(new Set([started.itemId, delta1.itemId, delta2.itemId, completed.itemId]).size).toBe(1);
    expect(started.payload).toEqual({ text: '' });
    expect(delta1).toMatchObject({
      status: 'inProgress',
      payload: { text: 'The workspace contains' },
      delta: 'The workspace contains',
    });
    expect(delta2).toMatchObject({
      status: 'inProgress',
      payload: { text: ' a README.' },
      delta: ' a README.',
    });
    expect(completed).toMatchObject({
      status: 'completed',
      payload: { text: 'The workspace contains a README.' },
    });
    expect(completed.createdAt).toBe(started.createdAt);
    expect(Number.isInteger(completed.updatedAt)).toBe(true);

    const [toolStarted, toolDelta, toolCompleted] = traffic.slice(7, 10).map((m) => m.params as WireMessage);
    expect(new Set([toolStarted.itemId, toolDelta.itemId, toolCompleted.itemId]).size).toBe(1);
    expect(toolStarted.payload).toMatchObject({
      toolCallId: 'call_fin',
      toolName: 'task_finish',
      arguments: { message: 'All done.' },
    });
    expect(toolDelta.delta).toEqual({ message: 'All done.' });
    expect(toolCompleted).toMatchObject({
      status: 'completed',
      payload: { status: 'success', directive: 'finish', errorCode: null, executionStarted: true },
    });

    // §8.4: finalOutput differs from the last agentMessage → a born-complete final message.
    expect(traffic[10].params).toMatchObject({
      type: 'agentMessage',
      status: 'completed',
      payload: { text: 'All done.', final: true },
    });

    const turnCompleted = traffic[12].params as Record<string, unknown>;
    expect(turnCompleted).toMatchObject({
      threadId,
      turnId,
      status: 'completed',
      finalOutput: 'All done.',
      completionReason: 'tool_finish',
      completionToolName: 'task_finish',
    });
    expect(turnCompleted.runId).toMatch(ID('run'));
    expect(turnCompleted).not.toHaveProperty('error');
    expect((turnCompleted.tokenUsage as { cycles: unknown[] }).cycles).toHaveLength(1);
  });

  it('replays every item once, equal to its last notification, and the turn with its result', async () => {
    live = await LiveAppServer.start({
      steps: [
        {
          content: `Let me${CHUNK} look.`,
          tool_calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }],
        },
        finish('Wrote a.txt'),
      ],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client, { metadata: { title: 'replay' } });
    const { turnId, from, completed } = await runTurn(client, threadId, text('write it'));

    const lastById = new Map<string, Record<string, unknown>>();
    for (const message of client.traffic(from)) {
      if (!message.method?.startsWith('item/')) continue;
      const { delta: _delta, ...item } = message.params as Record<string, unknown>;
      lastById.set(item.itemId as string, item);
    }
    const read = await client.call<{
      thread: Record<string, unknown>;
      turns: Array<Record<string, unknown>>;
      items: Array<Record<string, unknown>>;
    }>('thread/read', { threadId });
    expect(read.items).toEqual([...lastById.values()]);
    expect(read.items.map((item) => item.type)).toEqual([
      'userMessage',
      'agentMessage',
      'toolCall',
      'agentMessage',
      'toolCall',
    ]);
    expect(read.thread).toMatchObject({
      threadId,
      status: 'idle',
      metadata: { title: 'replay' },
      archivedAt: null,
    });
    const {
      threadId: _t,
      turnId: _u,
      runId,
      status,
      ...result
    } = completed.params as Record<string, unknown>;
    expect(read.turns).toEqual([
      {
        turnId,
        threadId,
        runId,
        status,
        startedAt: expect.any(Number),
        completedAt: expect.any(Number),
        input: text('write it'),
        result,
      },
    ]);
    expect(read.thread.updatedAt).toBe(read.turns[0].completedAt);

    // limit and afterItemId (§8.8).
    const firstTwo = await client.call<{ items: unknown[] }>('thread/read', { threadId, limit: 2 });
    expect(firstTwo.items).toEqual(read.items.slice(0, 2));
    const afterSecond = await client.call<{ items: unknown[] }>('thread/read', {
      threadId,
      afterItemId: read.items[1].itemId,
    });
    // The anchor itself changed after its creation (it completed), so it is included; the userMessage is not.
    expect(afterSecond.items).toEqual(read.items.slice(1));
    const unknownAnchor = await client.call<{ items: unknown[] }>('thread/read', {
      threadId,
      afterItemId: 'item_x',
    });
    expect(unknownAnchor.items).toEqual(read.items);
  });

  it('gives turn 2 the conversation of turn 1 (history per §8.10)', async () => {
    const seen: LlmRequest[] = [];
    live = await LiveAppServer.start({
      steps: [finish('The word is kiwi.'), recordingStep(seen, finish('You said kiwi.'))],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    await runTurn(client, threadId, text('Remember the word kiwi.'));
    await runTurn(client, threadId, [
      { type: 'text', text: 'Which word?' },
      { type: 'image', url: 'u' },
    ]);

    const messages = seen[0].messages;
    expect(messages[0]).toEqual({ role: 'system', content: 'You are a test assistant.' });
    expect(messages[1]).toEqual({ role: 'user', content: 'Remember the word kiwi.' });
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: 'The word is kiwi.',
      tool_calls: [{ id: 'finish', type: 'function', function: { name: 'task_finish' } }],
    });
    expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'finish' });
    expect(messages[messages.length - 1]).toEqual({
      role: 'user',
      content: 'Which word?\n{"type":"image","url":"u"}',
    });
  });

  it('keeps the conversation and the items across a restart on the same store file', async () => {
    const seen: LlmRequest[] = [];
    live = await LiveAppServer.start({ steps: [finish('Noted: 42.')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    await runTurn(client, threadId, text('The number is 42.'));
    const before = await client.call<{ items: unknown[] }>('thread/read', { threadId });
    await live.close(true);

    live = await LiveAppServer.start(
      { storePath: live.storePath, steps: [recordingStep(seen, finish('It was 42.'))] },
      live.root,
    );
    const next = await live.connect();
    const resumed = await next.call<{ items: unknown[]; thread: { status: string } }>('thread/resume', {
      threadId,
    });
    expect(resumed.items).toEqual(before.items);
    expect(resumed.thread.status).toBe('idle');
    await runTurn(next, threadId, text('What was the number?'));
    expect(seen[0].messages.slice(1, 3)).toMatchObject([
      { role: 'user', content: 'The number is 42.' },
      { role: 'assistant', content: 'Noted: 42.' },
    ]);
    live.removeFiles();
  });

  it('answers turn/start errors in the order of §3.9 and creates nothing', async () => {
    live = await LiveAppServer.start({ steps: [] });
    const client = await live.connect();
    await expect(
      client.request('turn/start', { threadId: 'thread_missing', input: [] }),
    ).resolves.toMatchObject({
      error: { code: -32020, message: 'Thread not found' },
    });
    const threadId = await live.startThread(client);
    await expect(client.request('turn/start', { threadId, input: ['x'] })).resolves.toMatchObject({
      error: { code: -32602, message: 'input must be a list of objects' },
    });
    await client.call('thread/archive', { threadId });
    const archived = await client.request('turn/start', { threadId, input: text('hi') });
    expect(archived.error).toEqual({ code: -32021, message: 'Thread archived' });
    const read = await client.call<{ turns: unknown[] }>('thread/read', { threadId });
    expect(read.turns).toEqual([]);
  });

  it('maps a host failure to -32603 with its message, with no turn and no notification', async () => {
    const base = new DefaultAppServerHost();
    let fail = true;
    const host: AppServerHost = {
      resolveAgent: (request) =>
        fail ? Promise.reject(new Error('agent resolution failed')) : base.resolveAgent(request),
      buildRunConfig: (request) => base.buildRunConfig(request),
      listModels: (params) => base.listModels(params),
    };
    live = await LiveAppServer.start({ host, steps: [finish('ok')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const failed = await client.request('turn/start', { threadId, input: text('hi') });
    expect(failed.error).toEqual({ code: -32603, message: 'agent resolution failed' });
    const read = await client.call<{ turns: unknown[]; thread: { status: string } }>('thread/read', {
      threadId,
    });
    expect(read.turns).toEqual([]);
    expect(read.thread.status).toBe('idle');
    expect(client.traffic(from)).toEqual([]);

    fail = false;
    const { completed } = await runTurn(client, threadId, text('hi'));
    expect(completed.params).toMatchObject({ status: 'completed' });
  });

  it('answers -32603 when the turn cannot be persisted, without starting its run: no turn remains, no model call', async () => {
    live = await LiveAppServer.start({ steps: [finish('later')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const store = live.server.app.get(TypeOrmAppServerStore);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await store.query('ALTER TABLE "turns" RENAME TO "turns_away"');
    const failed = await client
      .request('turn/start', { threadId, input: text('hi') })
      .finally(() => stderr.mockRestore());
    await store.query('ALTER TABLE "turns_away" RENAME TO "turns"');
    expect(failed.error).toEqual({ code: -32603, message: expect.stringContaining('turns') });
    const read = await client.call<{ turns: unknown[]; thread: { status: string } }>('thread/read', {
      threadId,
    });
    expect(read.turns).toEqual([]);
    expect(read.thread.status).toBe('idle');
    // The turn is persisted before its run starts: the refused one never called the model (before:
    // its run started, and was cancelled, after the model had the request), so the next turn gets
    // the first scripted reply. And the thread is free for it.
    const { completed } = await runTurn(client, threadId, text('again'));
    expect(completed.params).toMatchObject({ status: 'completed', finalOutput: 'later' });
  });

  it('reports a workspace that does not exist as -32603 from the default host', async () => {
    live = await LiveAppServer.start({ steps: [] });
    const client = await live.connect();
    const threadId = await live.startThread(client, { cwd: `${live.root}/missing` });
    const failed = await client.request('turn/start', { threadId, input: text('hi') });
    expect(failed.error).toEqual({
      code: -32603,
      message: `workspace directory not found: ${live.root}/missing`,
    });
  });

  it('finalizes a rejected run as failed with userMessage, error item and run_failed warning (§8.3)', async () => {
    live = await LiveAppServer.start({ runConfig: { maxCycles: 0 }, steps: [] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from, completed } = await runTurn(client, threadId, text('hi'));
    const message = 'max_cycles must be between 1 and 4294967295';
    expect(client.labels(from)).toEqual([
      'thread/status/changed(running)',
      'turn/started',
      'item/completed(userMessage)',
      'item/completed(error)',
      'error/warning',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    expect(client.traffic(from)[3].params).toMatchObject({
      type: 'error',
      status: 'completed',
      payload: { message },
    });
    expect(client.traffic(from)[4].params).toEqual({ threadId, turnId, code: 'run_failed', message });
    expect(completed.params).toMatchObject({ status: 'failed', error: message, completionReason: 'failed' });
    expect(completed.params).not.toHaveProperty('finalOutput');
    expect((completed.params as { tokenUsage: { cycles: unknown[] } }).tokenUsage.cycles).toEqual([]);

    const store = live.server.app.get(TypeOrmAppServerStore);
    await expect(store.conversations.load(threadId)).resolves.toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('finalizes a turn whose event stream threw as failed with error/warning event_stream', async () => {
    const provider = new ScriptedModelProvider({ steps: [{ content: 'slow', delay_ms: 20_000 }] });
    live = await LiveAppServer.start({ runner: new BrokenStreamRunner({ modelProvider: provider }) });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from, completed } = await runTurn(client, threadId, text('hi'));
    expect(client.labels(from)).toEqual([
      'thread/status/changed(running)',
      'turn/started',
      'item/completed(userMessage)',
      'error/warning',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    expect(client.traffic(from)[3].params).toEqual({
      threadId,
      turnId,
      code: 'event_stream',
      message: 'journal exploded',
    });
    expect(completed.params).toMatchObject({
      status: 'failed',
      error: 'journal exploded',
      completionReason: 'failed',
    });
  });

  it('a turn another instance already ended (declared this one lost) finishes without a trace here', async () => {
    const gated = gatedStep(finish('late answer'));
    live = await LiveAppServer.start({ steps: [gated.step, finish('next')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('long') });
    await gated.gate.reached;
    // What a survivor's recovery writes (docs/spec/postgres.md §2): the turn ended, the thread free.
    const store = live.server.app.get(TypeOrmAppServerStore);
    const owner = {
      ownerHost: hostname(),
      ownerPid: process.pid,
      ownerToken: processStartToken(process.pid),
    };
    expect(await store.recoverTurnsOwnedBy(owner, 'server instance lost', Date.now())).toHaveLength(1);
    gated.gate.open();
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Before: turn/completed(completed) and idle were sent, and the store said completed.
    expect(client.labels(from).filter((l) => l.startsWith('turn/completed') || l.includes('(idle)'))).toEqual(
      [],
    );
    expect(await store.turns.get(turnId)).toMatchObject({
      status: 'interrupted',
      result: { error: 'server instance lost' },
    });
    // The thread's slot here was freed: it takes a new turn.
    await expect(runTurn(client, threadId, text('again'))).resolves.toMatchObject({
      completed: { params: expect.objectContaining({ status: 'completed' }) },
    });
  });

  it('reports store failures during a turn as error/warning store; a finish that cannot store its items ends the turn failed, as stored', async () => {
    live = await LiveAppServer.start({ steps: [finish('first'), finish('done')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    await runTurn(client, threadId, text('seed the thread'));
    const store = live.server.app.get(TypeOrmAppServerStore);
    // The store logs each failed query on stderr; keep the test output readable.
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await store.query('ALTER TABLE "items" RENAME TO "items_away"');
    const { turnId, from, completed } = await runTurn(client, threadId, text('hi')).finally(() =>
      stderr.mockRestore(),
    );
    await store.query('ALTER TABLE "items_away" RENAME TO "items"');

    const warnings = client.traffic(from).filter((m) => m.method === 'error/warning');
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) {
      expect(warning.params).toEqual({
        threadId,
        turnId,
        code: 'store',
        message: expect.stringContaining('items'),
      });
    }
    // The refused item states are part of the turn's atomic finish (§8.5 step 2), which the store
    // refuses too: the turn ends failed with the store error, and that is what is stored.
    expect(completed.params).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^store error: .*items/),
    });
    expect(client.labels(from).slice(-2)).toEqual(['thread/status/changed(idle)', 'turn/completed']);
    const [, stored] = (await store.readThread(threadId))!.turns;
    expect(stored).toMatchObject({ turnId, status: 'failed' });
  });
});
