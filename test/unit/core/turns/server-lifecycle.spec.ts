/**
 * The server's own lifecycle around turns: shutdown (docs/spec/protocol.md §1.9) through the normal terminal
 * path or, past the deadline, by direct store writes; restart recovery (§8.11) through the module;
 * and a store that cannot be opened (§12.3 step 4).
 */
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../../src/runtime/agent';
import { buildRunEvent } from '../../../../src/runtime/events/run-event-factory';
import type { RunEvent } from '../../../../src/runtime/events/types';
import { finish } from '../../../../src/runtime/model/scripted-model';
import type { RunConfig, RunHandle, RunResult } from '../../../../src/runtime/run-config';
import { Runner } from '../../../../src/runtime/runner';
import { AppServerStore } from '../../../../src/persistence/sqlite/app-server-store';
import { StoreError } from '../../../../src/persistence/typeorm/store-errors';
import { startInProcessAppServer } from '../../../../src/nest/in-process-app-server';
import { runStdioAppServer } from '../../../../src/nest/stdio-app-server';
import { SilentLogger } from '../../support/in-process-core';
import { LiveAppServer, runTurn, text } from '../../support/live-app-server';

/** A run that streams a few events, then hangs: it never ends, whatever cancel says. */
class HangingRunner extends Runner {
  override start(agent: Agent, input: string, config: RunConfig = {}): RunHandle {
    const runId = 'run_0123456789abcdef0123456789abcdef';
    const scope = {
      runId,
      traceId: 'trace_0123456789abcdef0123456789abcdef',
      agentName: agent.name,
      sessionId: String(config.metadata?.session_id),
    };
    const events: RunEvent[] = [
      buildRunEvent(scope, { type: 'run_started', input }),
      buildRunEvent(
        scope,
        { type: 'assistant_delta', delta: 'partial answer', cycle_index: 1 },
        { cycleIndex: 1 },
      ),
    ];
    return {
      runId,
      traceId: scope.traceId,
      async *events() {
        yield* events;
        await new Promise<never>(() => undefined);
      },
      result: () => new Promise<RunResult>(() => undefined),
      cancel: () => true,
      steer: () => 'steer_0',
      followUp: () => undefined,
      followUps: () => [],
      approve: async () => undefined,
      state: () => ({ status: 'running', done: false, cancelled: true, error: null }),
    };
  }
}

describe('shutdown (§1.9)', () => {
  let live: LiveAppServer | undefined;

  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  it('cancels running turns, which finish through the normal terminal path; follow-ups do not start', async () => {
    live = await LiveAppServer.start({ steps: [{ content: 'slow', delay_ms: 20_000 }, finish('never')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('wait') });
    await client.waitForMethod('turn/started', () => true, { from });
    await client.call('turn/followUp', { threadId, input: text('not started') });

    await live.server.close();
    expect(client.labels(from).slice(-2)).toEqual(['thread/status/changed(idle)', 'turn/completed']);
    expect(client.traffic(from).at(-1)?.params).toMatchObject({
      turnId,
      status: 'interrupted',
      completionReason: 'cancelled',
      error: 'server shutting down',
    });
    expect(client.connection.isClosed).toBe(true);

    const store = await AppServerStore.open(live.storePath);
    try {
      const turns = await store.turns.listByThread(threadId);
      expect(turns).toHaveLength(1);
      expect(turns[0]).toMatchObject({ status: 'interrupted', result: { error: 'server shutting down' } });
      await expect(store.threads.get(threadId)).resolves.toMatchObject({ activeTurnId: null });
    } finally {
      await store.close();
    }
  });

  it('resolves a pending approval as timeout "server shutting down" before cancelling the run', async () => {
    live = await LiveAppServer.start({
      steps: [{ tool_calls: [{ id: 'call_b', name: 'bash', arguments: { command: 'echo hi > out.txt' } }] }],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', {
      threadId,
      input: text('run it'),
    });
    const request = await client.waitForMethod('approval/request', () => true, { from });

    await live.server.close();
    const labels = client.labels(from);
    const tail = labels.slice(labels.indexOf('approval/request') + 1);
    expect(tail).toEqual([
      'approval/resolved',
      'item/completed(approval)',
      'item/completed(toolCall)',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    const traffic = client.traffic(from);
    const resolvedAt = labels.indexOf('approval/resolved');
    expect(traffic[resolvedAt].params).toEqual({
      threadId,
      turnId,
      requestId: request.id,
      decision: 'timeout',
      reason: 'server shutting down',
    });
    expect(traffic[resolvedAt + 2].params).toMatchObject({
      status: 'failed',
      payload: { errorCode: 'tool_execution_cancelled', executionStarted: false },
    });
    expect(traffic.at(-1)?.params).toMatchObject({ status: 'interrupted', error: 'server shutting down' });
  });

  it('writes turns still running at the deadline to the store directly, without notifications', async () => {
    live = await LiveAppServer.start({ runner: new HangingRunner() });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('hang') });
    await client.waitForMethod('item/agentMessage/delta', () => true, { from });

    const startedAt = Date.now();
    await live.server.close();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(4_000);
    expect(client.labels(from)).not.toContain('turn/completed');

    const store = await AppServerStore.open(live.storePath);
    try {
      const [turn] = await store.turns.listByThread(threadId);
      expect(turn).toMatchObject({
        turnId,
        status: 'interrupted',
        result: { error: 'server shutting down', completionReason: 'cancelled' },
      });
      expect(turn.completedAt).not.toBeNull();
      const items = await store.items.read(threadId);
      expect(items.map((item) => [item.type, item.status])).toEqual([
        ['userMessage', 'completed'],
        ['agentMessage', 'interrupted'],
      ]);
      expect(items[1].payload).toEqual({ text: 'partial answer' });
      await expect(store.threads.get(threadId)).resolves.toMatchObject({ activeTurnId: null });
      await expect(store.conversations.load(threadId)).resolves.toEqual([{ role: 'user', content: 'hang' }]);
    } finally {
      await store.close();
    }
  }, 15_000);
});

describe('restart recovery through the module (§8.11)', () => {
  it('reports a turn left running by a dead server as interrupted and the thread as idle', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vv-recovery-'));
    const storePath = join(root, 'app-server.sqlite');
    const threadId = 'thread_00000000000000000000000000000001';
    const turnId = 'turn_00000000000000000000000000000001';
    const seeded = await AppServerStore.open(storePath);
    await seeded.threads.create({ threadId, agentKey: 'default', cwd: root, metadata: {}, now: 1_000 });
    await seeded.beginTurn({ turnId, threadId, runId: null, input: text('lost'), startedAt: 1_000 });
    await seeded.items.upsert({
      item: {
        itemId: 'item_00000000000000000000000000000001',
        threadId,
        turnId,
        type: 'agentMessage',
        status: 'inProgress',
        payload: { text: 'half' },
        createdAt: 1_001,
        updatedAt: 1_001,
      },
      createdSeq: 1,
      changeSeq: 1,
    });
    await seeded.close();

    const live = await LiveAppServer.start({ storePath, steps: [finish('back again')] }, root);
    try {
      const client = await live.connect();
      const read = await client.call<{
        thread: { status: string };
        turns: Array<Record<string, unknown>>;
        items: Array<Record<string, unknown>>;
      }>('thread/read', { threadId });
      expect(read.thread.status).toBe('idle');
      expect(read.turns[0]).toMatchObject({
        turnId,
        status: 'interrupted',
        result: { error: 'server restarted before the turn finished' },
      });
      expect(read.items[0]).toMatchObject({ status: 'interrupted', payload: { text: 'half' } });
      // The thread is free again.
      const { completed } = await runTurn(client, threadId, text('hello'));
      expect(completed.params).toMatchObject({ status: 'completed', finalOutput: 'back again' });
    } finally {
      await live.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a store that cannot be opened (§12.3 step 4)', () => {
  const root = mkdtempSync(join(tmpdir(), 'vv-badstore-'));
  const blocker = join(root, 'not-a-directory');
  writeFileSync(blocker, 'x');
  const badPath = join(blocker, 'app-server.sqlite');

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fails the in-process start with the StoreError', async () => {
    await expect(
      startInProcessAppServer({ store: { path: badPath } }, new SilentLogger()),
    ).rejects.toBeInstanceOf(StoreError);
  });

  it('makes runStdioAppServer exit 1 with one stderr line, before reading stdin', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"x"}}}\n');
      await expect(runStdioAppServer({ store: { path: badPath } }, { stdin, stdout })).resolves.toBe(1);
    } finally {
      stderr.mockRestore();
    }
    expect(written.join('')).toMatch(/^failed to open App Server store: [^\n]+\n$/);
    expect(stdout.read()).toBeNull();
  });
});
