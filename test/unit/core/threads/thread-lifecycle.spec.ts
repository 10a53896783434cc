/**
 * `thread/*` through the real module and store (docs/spec/protocol.md §3.3–§3.8, §7.1, §8.1): results,
 * recipients and order of each handler's notifications, reported statuses, paging, and resume.
 */
import { TypeOrmAppServerStore } from '../../../../src/persistence/typeorm/app-server-store';
import { finish, type ScriptObjectStep } from '../../../../src/runtime/model/scripted-model';
import { gatedStep, LiveAppServer, runTurn, text, type WireMessage } from '../../support/live-app-server';

interface ReadResult {
  thread: Record<string, unknown> & { status: string };
  turns: Array<Record<string, unknown>>;
  items: Array<Record<string, unknown>>;
}

function bash(command: string): ScriptObjectStep {
  return { tool_calls: [{ id: 'call_b', name: 'bash', arguments: { command } }] };
}

describe('threads', () => {
  let live: LiveAppServer;

  afterEach(async () => {
    await live?.close();
  });

  it('thread/start: defaults, result, then thread/started (equal to the result) to the requester only', async () => {
    live = await LiveAppServer.start();
    const client = await live.connect();
    const bystander = await live.connect();
    const from = client.messages.length;
    const response = await client.request('thread/start');
    const result = response.result as Record<string, unknown>;
    expect(result).toEqual({
      threadId: expect.stringMatching(/^thread_[0-9a-f]{32}$/),
      agentKey: 'default',
      cwd: null,
      status: 'idle',
    });
    const started = await client.waitForMethod('thread/started', () => true, { from });
    expect(started.params).toEqual(result);
    expect(client.messages.indexOf(response)).toBeLessThan(client.messages.indexOf(started));
    expect(bystander.traffic()).toEqual([]);

    const custom = await client.call('thread/start', {
      agentKey: '',
      cwd: './rel',
      metadata: { title: 'T', n: [1] },
    });
    expect(custom).toMatchObject({ agentKey: '', cwd: './rel', status: 'idle' });
    const read = await client.call<ReadResult>('thread/read', {
      threadId: (custom as { threadId: string }).threadId,
    });
    expect(read.thread).toEqual({
      threadId: (custom as { threadId: string }).threadId,
      agentKey: '',
      cwd: './rel',
      status: 'idle',
      metadata: { title: 'T', n: [1] },
      createdAt: expect.any(Number),
      updatedAt: read.thread.createdAt,
      archivedAt: null,
      forkedFrom: null,
    });
    expect(read.turns).toEqual([]);
    expect(read.items).toEqual([]);
  });

  it('answers -32020 for unknown threads on read, resume, archive and unsubscribe', async () => {
    live = await LiveAppServer.start();
    const client = await live.connect();
    for (const method of ['thread/read', 'thread/resume', 'thread/archive', 'thread/unsubscribe']) {
      const answer = await client.request(method, { threadId: 'thread_unknown' });
      expect(answer.error).toEqual({ code: -32020, message: 'Thread not found' });
    }
    expect(client.traffic()).toEqual([]);
  });

  it("answers store failures with -32603 and the cause's message", async () => {
    live = await LiveAppServer.start();
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const store = live.server.app.get(TypeOrmAppServerStore);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await store.query('ALTER TABLE "threads" RENAME TO "threads_away"');
      const read = await client.request('thread/read', { threadId });
      expect(read.error).toEqual({ code: -32603, message: 'SQLITE_ERROR: no such table: threads' });
      const started = await client.request('thread/start');
      expect(started.error).toEqual({ code: -32603, message: 'SQLITE_ERROR: no such table: threads' });
      await store.query('ALTER TABLE "threads_away" RENAME TO "threads"');
    } finally {
      stderr.mockRestore();
    }
    await expect(client.call('thread/read', { threadId })).resolves.toMatchObject({ thread: { threadId } });
  });

  it('thread/archive: response, thread/archived, status archived — to the requester and every subscriber', async () => {
    live = await LiveAppServer.start();
    const creator = await live.connect();
    const requester = await live.connect();
    const bystander = await live.connect();
    const threadId = await live.startThread(creator);
    const from = creator.messages.length;
    const response = await requester.request('thread/archive', { threadId });
    expect(response.result).toEqual({ threadId, archived: true });
    const expected = [
      { jsonrpc: '2.0', method: 'thread/archived', params: { threadId, archived: true } },
      { jsonrpc: '2.0', method: 'thread/status/changed', params: { threadId, status: 'archived' } },
    ];
    await requester.waitForMethod('thread/status/changed');
    await creator.waitForMethod('thread/status/changed', () => true, { from });
    const afterResponse = requester.messages.slice(requester.messages.indexOf(response) + 1);
    expect(afterResponse).toEqual(expected);
    expect(creator.traffic(from)).toEqual(expected);
    expect(bystander.traffic()).toEqual([]);

    const first = await creator.call<ReadResult>('thread/read', { threadId });
    expect(first.thread.status).toBe('archived');
    expect(first.thread.archivedAt).toBe(first.thread.updatedAt);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await requester.call('thread/archive', { threadId });
    const second = await creator.call<ReadResult>('thread/read', { threadId });
    expect(second.thread.archivedAt as number).toBeGreaterThan(first.thread.archivedAt as number);
    // The requester was not subscribed by archiving: a later turn's traffic does not reach it.
    expect((await requester.call('thread/unsubscribe', { threadId })) as object).toEqual({
      threadId,
      subscribed: false,
      closed: false,
    });
  });

  it('an archived thread keeps its running turn: it completes without status idle', async () => {
    const gated = gatedStep(finish('done anyway'));
    live = await LiveAppServer.start({ steps: [gated.step] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('go') });
    await gated.gate.reached;
    await client.call('thread/archive', { threadId });
    gated.gate.open();
    const completed = await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });
    expect(completed.params).toMatchObject({ status: 'completed' });
    const labels = client.labels(from);
    expect(labels).not.toContain('thread/status/changed(idle)');
    expect(labels.slice(-2)).toEqual(['item/completed(toolCall)', 'turn/completed']);
    expect((await client.call<ReadResult>('thread/read', { threadId })).thread.status).toBe('archived');
  });

  it('thread/unsubscribe closes a thread only without subscribers and active turn; resume clears closed', async () => {
    const gated = gatedStep(finish('ok'));
    live = await LiveAppServer.start({ steps: [gated.step] });
    const a = await live.connect();
    const b = await live.connect();
    const threadId = await live.startThread(a);
    await b.call('thread/resume', { threadId });

    const fromA = a.messages.length;
    await expect(a.call('thread/unsubscribe', { threadId })).resolves.toEqual({
      threadId,
      subscribed: false,
      closed: false,
    });
    const { turnId } = await b.call<{ turnId: string }>('turn/start', { threadId, input: text('go') });
    await gated.gate.reached;
    // The owner unsubscribes during its turn: not closed (active turn).
    await expect(b.call('thread/unsubscribe', { threadId })).resolves.toEqual({
      threadId,
      subscribed: false,
      closed: false,
    });
    gated.gate.open();
    // Nobody is subscribed any more, so the end of the turn is only visible as the thread closing.
    let from = b.messages.length;
    let closing = await b.request('thread/unsubscribe', { threadId });
    for (let i = 0; i < 100 && (closing.result as { closed: boolean }).closed === false; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      from = b.messages.length;
      closing = await b.request('thread/unsubscribe', { threadId });
    }
    expect(closing.result).toEqual({ threadId, subscribed: false, closed: true });
    await b.waitForMethod('thread/status/changed', () => true, { from });
    expect(b.messages.slice(from + 1)).toEqual([
      { jsonrpc: '2.0', method: 'thread/closed', params: { threadId } },
      { jsonrpc: '2.0', method: 'thread/status/changed', params: { threadId, status: 'closed' } },
    ]);
    const turns = (await a.call<ReadResult>('thread/read', { threadId })).turns;
    expect(turns).toEqual([expect.objectContaining({ turnId, status: 'completed' })]);
    expect(a.traffic(fromA)).toEqual([]);
    expect((await a.call<ReadResult>('thread/read', { threadId })).thread.status).toBe('closed');
    const listed = await a.call<{ threads: Array<{ threadId: string; status: string }> }>('thread/list');
    expect(listed.threads.find((t) => t.threadId === threadId)?.status).toBe('closed');

    // Closing again re-emits both notifications.
    const again = b.messages.length;
    await b.call('thread/unsubscribe', { threadId });
    await b.waitForMethod('thread/status/changed', () => true, { from: again });
    expect(b.labels(again)).toEqual(['thread/closed', 'thread/status/changed(closed)']);

    const resumed = await a.call<ReadResult>('thread/resume', { threadId, subscribe: false });
    expect(resumed.thread.status).toBe('idle');
  });

  it('drops a closed connection from the subscribers', async () => {
    live = await LiveAppServer.start();
    const a = await live.connect();
    const b = await live.connect();
    const threadId = await live.startThread(a);
    await b.call('thread/resume', { threadId });
    await expect(a.call('thread/unsubscribe', { threadId })).resolves.toMatchObject({ closed: false });
    await a.call('thread/resume', { threadId });
    b.disconnect();
    await expect(a.call('thread/unsubscribe', { threadId })).resolves.toMatchObject({ closed: true });
  });

  it('thread/list: reported statuses, archived selection, order and cursor paging; bad cursor is -32602', async () => {
    live = await LiveAppServer.start();
    const client = await live.connect();
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      ids.push(await live.startThread(client, { metadata: { i } }));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await client.call('thread/archive', { threadId: ids[1] });

    const all = await client.call<{
      threads: Array<{ threadId: string; status: string }>;
      nextCursor: string | null;
    }>('thread/list');
    expect(all.threads.map((t) => t.threadId)).toEqual([ids[3], ids[2], ids[0]]);
    expect(all.threads.every((t) => t.status === 'idle')).toBe(true);
    expect(all.nextCursor).toBeNull();

    const archivedOnly = await client.call<{ threads: Array<{ threadId: string; status: string }> }>(
      'thread/list',
      {
        archived: true,
      },
    );
    expect(archivedOnly.threads).toEqual([expect.objectContaining({ threadId: ids[1], status: 'archived' })]);
    const withArchived = await client.call<{ threads: Array<{ threadId: string }> }>('thread/list', {
      includeArchived: true,
    });
    expect(withArchived.threads.map((t) => t.threadId)).toEqual([ids[1], ids[3], ids[2], ids[0]]);

    const page1 = await client.call<{ threads: Array<{ threadId: string }>; nextCursor: string }>(
      'thread/list',
      {
        limit: 2,
      },
    );
    expect(page1.threads.map((t) => t.threadId)).toEqual([ids[3], ids[2]]);
    const page2 = await client.call<{ threads: Array<{ threadId: string }>; nextCursor: string | null }>(
      'thread/list',
      {
        limit: 2,
        cursor: page1.nextCursor,
      },
    );
    expect(page2.threads.map((t) => t.threadId)).toEqual([ids[0]]);
    expect(page2.nextCursor).toBeNull();

    const bad = await client.request('thread/list', { cursor: 'not-a-cursor' });
    expect(bad.error).toEqual({
      code: -32602,
      message: 'Invalid params: /cursor is invalid',
      data: { errors: [{ path: '/cursor', message: 'is invalid' }] },
    });
  });

  it('thread/resume during a turn: running snapshot first, then every later notification; replay + live = final', async () => {
    live = await LiveAppServer.start({ steps: [bash('echo hi'), finish('Finished.')] });
    const owner = await live.connect();
    const resumer = await live.connect();
    const threadId = await live.startThread(owner);
    const { turnId } = await owner.call<{ turnId: string }>('turn/start', { threadId, input: text('go') });
    const request = await owner.waitForMethod('approval/request');

    const response = await resumer.request('thread/resume', { threadId });
    const snapshot = response.result as ReadResult;
    expect(snapshot.thread.status).toBe('running');
    expect(snapshot.turns).toEqual([
      expect.objectContaining({ turnId, status: 'running', completedAt: null, result: {} }),
    ]);
    expect(snapshot.items.at(-1)).toMatchObject({ type: 'approval', status: 'inProgress' });
    expect(resumer.messages.indexOf(response)).toBe(1);

    owner.respond(request.id as string, { decision: 'allow' });
    await resumer.waitForMethod('turn/completed', (p) => p.turnId === turnId);
    // The resumer never gets the owner's server request.
    expect(resumer.labels()).not.toContain('approval/request');

    const state = new Map<string, Record<string, unknown>>();
    for (const item of snapshot.items) state.set(item.itemId as string, item);
    for (const message of resumer.traffic()) {
      if (!message.method?.startsWith('item/')) continue;
      const { delta: _delta, ...item } = message.params as Record<string, unknown>;
      const known = state.get(item.itemId as string);
      if (known === undefined || (item.updatedAt as number) >= (known.updatedAt as number)) {
        state.set(item.itemId as string, item);
      }
    }
    const final = await owner.call<ReadResult>('thread/read', { threadId });
    expect([...state.values()]).toEqual(final.items);
    expect(resumer.labels().slice(-2)).toEqual(['thread/status/changed(idle)', 'turn/completed']);
  });

  it('thread/resume with subscribe false takes a snapshot only; afterItemId filters like thread/read', async () => {
    live = await LiveAppServer.start({ steps: [finish('one'), finish('two')] });
    const owner = await live.connect();
    const reader = await live.connect();
    const threadId = await live.startThread(owner);
    await runTurn(owner, threadId, text('first'));
    const snapshot = await reader.call<ReadResult>('thread/resume', { threadId, subscribe: false });
    const anchor = snapshot.items.at(-1) as WireMessage;
    await runTurn(owner, threadId, text('second'));
    expect(reader.traffic()).toEqual([]);
    const after = await reader.call<ReadResult>('thread/resume', {
      threadId,
      subscribe: false,
      afterItemId: anchor.itemId,
    });
    const read = await owner.call<ReadResult>('thread/read', { threadId, afterItemId: anchor.itemId });
    expect(after.items).toEqual(read.items);
    // The anchor (turn 1's task_finish call) completed after its creation, so it comes back first;
    // everything else is turn 2's.
    expect(after.items[0].itemId).toBe(anchor.itemId);
    expect(after.items.length).toBeGreaterThan(1);
    expect(after.items.slice(1).every((item) => item.turnId !== anchor.turnId)).toBe(true);
  });
});
