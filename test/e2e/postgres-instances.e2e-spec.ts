/**
 * Several server processes on one PostgreSQL database (docs/spec/postgres.md §2, §3), each with its own
 * stdio client: the one-active-turn rule is the database's, not a process's, and an instance
 * started later finds everything the others stored; a subscriber on one instance sees a turn
 * running on another live, and survivors end the turns of an instance killed mid-turn.
 */
import {
  E2eSandbox,
  eventually,
  isTurnCompleted,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
  type RpcErrorBody,
} from '../helpers/app-server-session';
import { chunks, textReply, type FakeReply, type StreamStep } from '../helpers/fake-openai-server';
import { bashReply, finishReply, gate, hangingTextReply } from '../helpers/model-replies';
import { WsPeer, WsServerProcess } from '../helpers/websocket-server';
import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { join } from 'node:path';

jest.setTimeout(90_000);

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-pg-instances-', { storeDriver: 'postgres' });
});

afterEach(async () => {
  await sandbox.dispose();
});

async function instance(): Promise<AppServerSession> {
  const session = sandbox.spawn({ store: 'shared' });
  await session.initialize();
  return session;
}

describe('several instances on one database (docs/spec/postgres.md §2)', () => {
  it('20 concurrent turn/start on one thread from three instances: exactly one succeeds', async () => {
    // The winner's turn keeps streaming, so the thread stays busy for the whole race.
    sandbox.model.setFallback(hangingTextReply(['still ', 'thinking']));
    const instances = [await instance(), await instance(), await instance()];
    const { threadId } = await instances[0].startThread();
    const input = [{ type: 'text', text: 'race' }];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        instances[index % 3].request('turn/start', { threadId, input }, 30_000),
      ),
    );
    const won = answers.filter((answer) => 'result' in answer);
    const refused = answers
      .map((answer) => answer.error as RpcErrorBody | undefined)
      .filter((e) => e !== undefined);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const error of refused)
      expect(error).toEqual({ code: -32602, message: 'Thread already has an active turn' });

    // Every instance reads the one running turn from the database, and reports its thread running.
    const { turnId } = won[0].result as { turnId: string };
    for (const session of instances) {
      const read = await session.call<{
        thread: { status: string };
        turns: Array<{ turnId: string; status: string }>;
      }>('thread/read', { threadId });
      expect(read.turns).toEqual([expect.objectContaining({ turnId, status: 'running' })]);
      expect(read.thread.status).toBe('running');
    }
  });

  it('an instance started later on the same database finds the threads, turns and items of another', async () => {
    sandbox.model.enqueue(finishReply('stored answer'));
    const first = await instance();
    const { threadId } = await first.startThread();
    await first.call('turn/start', { threadId, input: [{ type: 'text', text: 'remember this' }] });
    await first.collectUntil(isTurnCompleted(threadId));
    const before = await first.call('thread/read', { threadId });
    await first.kill();

    const second = await instance();
    const after = await second.call<{ thread: { status: string } }>('thread/read', { threadId });
    expect(after).toEqual(before);
    expect(after.thread.status).toBe('idle');
  });
});

function notificationsOf(messages: JsonMessage[], threadId: string): JsonMessage[] {
  return messages.filter((m) => 'method' in m && paramsOf(m).threadId === threadId);
}

/**
 * Instances A and B on the database; a thread started on A and resumed (subscribed) on B; a turn
 * started on A, once B has seen it stream (`seenOnB`: what B received up to its first delta).
 */
async function turnOnAStreamingToB(text: string): Promise<{
  a: AppServerSession;
  b: AppServerSession;
  threadId: string;
  turnId: string;
  seenOnB: JsonMessage[];
}> {
  const a = await instance();
  const b = await instance();
  const { threadId } = await a.startThread();
  await b.call('thread/resume', { threadId });
  const { turnId } = await a.call<{ turnId: string }>('turn/start', {
    threadId,
    input: [{ type: 'text', text }],
  });
  const seenOnB = await b.collectUntil(
    (m) => m.method === 'item/agentMessage/delta' && paramsOf(m).threadId === threadId,
  );
  return { a, b, threadId, turnId, seenOnB };
}

describe('live fan-out and instance loss (docs/spec/postgres.md §2)', () => {
  it('a subscriber on B of a turn running on A receives exactly what a subscriber on A receives, in order', async () => {
    // An agentMessage over 7,000 bytes: its item/completed travels by reference.
    const long = 'x'.repeat(9_000);
    sandbox.model.enqueue(textReply(['Hel', 'lo ', 'from ', 'A. ', long]));
    const a = await instance();
    const b = await instance();
    const { threadId } = await a.startThread();
    await b.call('thread/resume', { threadId });
    await a.call('turn/start', { threadId, input: [{ type: 'text', text: 'stream it' }] });
    const onA = notificationsOf(await a.collectUntil(isTurnCompleted(threadId)), threadId);
    const onB = notificationsOf(await b.collectUntil(isTurnCompleted(threadId)), threadId);
    expect(onA.map((m) => m.method)).toEqual(
      expect.arrayContaining([
        'thread/status/changed',
        'turn/started',
        'item/agentMessage/delta',
        'turn/completed',
      ]),
    );
    expect(onB).toEqual(onA);
    const completed = onB.filter((m) => m.method === 'item/completed').map((m) => paramsOf(m));
    expect(completed.some((item) => (item.payload as { text?: string }).text?.endsWith(long))).toBe(true);
  });

  it('kill -9 of the owning instance mid-turn: survivors close the streaming agentMessage (item/completed, interrupted) and end the turn "server instance lost" within 20 s', async () => {
    sandbox.model.setFallback(hangingTextReply(['working ', 'on it']));
    const a = await instance();
    const b = await instance();
    const c = await instance();
    const { threadId } = await a.startThread();
    await b.call('thread/resume', { threadId });
    await c.call('thread/resume', { threadId });
    const { turnId } = await a.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'hang' }],
    });
    // Both fragments streamed (the model then hangs): the text every subscriber was shown.
    const streamed = await b.collectUntil(
      (m) =>
        m.method === 'item/agentMessage/delta' &&
        paramsOf(m).threadId === threadId &&
        paramsOf(m).delta === 'on it',
    );
    const messageId = String(paramsOf(streamed[streamed.length - 1]).itemId);
    await a.kill();
    const killedAt = Date.now();

    for (const survivor of [b, c]) {
      const traffic = notificationsOf(
        await survivor.collectUntil(isTurnCompleted(threadId), 25_000),
        threadId,
      );
      expect(Date.now() - killedAt).toBeLessThan(20_000);
      // The bubble the client shows streaming is closed, with the state the store recorded (§8.3).
      // Before: no item/completed for it at all.
      expect(traffic.slice(-3).map((m) => m.method)).toEqual([
        'item/completed',
        'thread/status/changed',
        'turn/completed',
      ]);
      expect(paramsOf(traffic[traffic.length - 3])).toMatchObject({
        itemId: messageId,
        turnId,
        type: 'agentMessage',
        status: 'interrupted',
        payload: { text: 'working on it' },
      });
      expect(paramsOf(traffic[traffic.length - 2])).toEqual({ threadId, status: 'idle' });
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
        threadId,
        turnId,
        status: 'interrupted',
        error: 'server instance lost',
      });
    }
    const read = await b.call<{ thread: { status: string }; turns: Array<Record<string, unknown>> }>(
      'thread/read',
      {
        threadId,
      },
    );
    expect(read.thread.status).toBe('idle');
    expect(read.turns).toEqual([
      expect.objectContaining({ turnId, status: 'interrupted', result: { error: 'server instance lost' } }),
    ]);
    // The thread takes a new turn again, on a survivor.
    sandbox.model.setFallback(finishReply('back'));
    await expect(
      b.call('turn/start', { threadId, input: [{ type: 'text', text: 'again' }] }),
    ).resolves.toMatchObject({
      status: 'running',
    });
  });
});

describe('instances started together on an empty database (docs/spec/postgres.md §2)', () => {
  it("B's subscriber sees A's turn live and B's turn/interrupt reaches it, with A and B started at the same moment (5 fresh databases)", async () => {
    sandbox.model.setFallback(hangingTextReply(['started ', 'together']));
    for (let round = 0; round < 5; round += 1) {
      // As an orchestrator starts replicas: both processes spawned in the same tick. Before: both
      // got the same instance id (the process start token counts 10 ms clock ticks), so each dropped
      // the other's NOTIFYs as its own — no fan-out, no forwarded answer, one shared heartbeat row.
      const store = `together-${round}`;
      const [a, b] = await Promise.all(
        [0, 1].map(async () => {
          const session = sandbox.spawn({ store });
          await session.initialize();
          return session;
        }),
      );
      const { threadId } = await a.startThread();
      await b.call('thread/resume', { threadId });
      const { turnId } = await a.call<{ turnId: string }>('turn/start', {
        threadId,
        input: [{ type: 'text', text: 'go' }],
      });
      await b.collectUntil(
        (m) => m.method === 'item/agentMessage/delta' && paramsOf(m).threadId === threadId,
        10_000,
      );
      expect(await b.call('turn/interrupt', { threadId, reason: 'from B' })).toEqual({
        threadId,
        turnId,
        cancelled: true,
      });
      const onB = notificationsOf(await b.collectUntil(isTurnCompleted(threadId), 10_000), threadId);
      expect(paramsOf(onB[onB.length - 1])).toMatchObject({ turnId, status: 'interrupted', error: 'from B' });
      await Promise.all([a.kill(), b.kill()]);
    }
  });
});

describe('control across instances (docs/spec/postgres.md §2)', () => {
  it("turn/steer and turn/interrupt sent to B reach the turn running on A, answered with A's answer", async () => {
    // Call 1 waits at a gate; the steering queued meanwhile skips its finish and reaches call 2,
    // which keeps streaming until the interrupt.
    const release = gate();
    sandbox.model.enqueue(
      finishReply('first attempt', {
        content: ['Working on it'],
        gate: release.promise,
        callId: 'call_first',
      }),
    );
    sandbox.model.setFallback(hangingTextReply(['waiting ', 'forever']));
    const { a, b, threadId, turnId } = await turnOnAStreamingToB('work');

    expect(await b.call('turn/steer', { threadId, input: [{ type: 'text', text: 'also check B' }] })).toEqual(
      {
        threadId,
        turnId,
        queued: true,
      },
    );
    expect(await b.failure('turn/steer', { threadId, expectedTurnId: 'turn_other', input: [] })).toEqual({
      code: -32031,
      message: 'Turn id mismatch',
    });
    release.open();
    const steered = await a.collectUntil(
      (m) => m.method === 'item/completed' && (paramsOf(m).payload as { steered?: boolean }).steered === true,
    );
    expect(paramsOf(steered[steered.length - 1]).payload).toMatchObject({
      text: 'also check B',
      steered: true,
    });

    await sandbox.model.waitForRequests(2);
    expect(await b.call('turn/interrupt', { threadId, reason: 'stop from B' })).toEqual({
      threadId,
      turnId,
      cancelled: true,
    });
    const onA = await a.collectUntil(isTurnCompleted(threadId));
    expect(paramsOf(onA[onA.length - 1])).toMatchObject({
      turnId,
      status: 'interrupted',
      completionReason: 'cancelled',
      error: 'stop from B',
    });
    await b.collectUntil(isTurnCompleted(threadId));
    // Nothing runs any more: B answers from the store at once.
    expect(await b.failure('turn/steer', { threadId, input: [] })).toEqual({
      code: -32030,
      message: 'Active turn not found',
    });
  });

  it('turn/followUp and turn/interrupt {clearFollowUps: true} sent to B: A drops the queue and answers the count (docs/spec/protocol.md §3.12 v1.2)', async () => {
    sandbox.model.enqueue(hangingTextReply(['working on A']));
    sandbox.model.setFallback(finishReply('unwanted follow-up'));
    const { a, b, threadId, turnId } = await turnOnAStreamingToB('work');
    for (const text of ['two', 'three', 'four'])
      await b.call('turn/followUp', { threadId, input: [{ type: 'text', text }] });

    expect(await b.call('turn/interrupt', { threadId, clearFollowUps: true })).toEqual({
      threadId,
      turnId,
      cancelled: true,
      clearedFollowUps: 3,
    });
    const onA = await a.collectUntil(isTurnCompleted(threadId));
    expect(paramsOf(onA[onA.length - 1])).toMatchObject({ turnId, status: 'interrupted' });
    await b.collectUntil(isTurnCompleted(threadId));
    // None of the three starts on A: the thread stays idle with its one turn, and the model saw one call.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await a.drain()).filter((m) => m.method === 'turn/started')).toEqual([]);
    expect(sandbox.model.requests).toHaveLength(1);
    const read = await b.call<{ thread: { status: string }; turns: unknown[] }>('thread/read', { threadId });
    expect({ status: read.thread.status, turns: read.turns.length }).toEqual({ status: 'idle', turns: 1 });
  });

  it('a forwarded request to an owner that is dead but not yet declared lost gets -32603 after 5 s', async () => {
    sandbox.model.setFallback(hangingTextReply(['hanging']));
    const a = await instance();
    const b = await instance();
    const { threadId } = await a.startThread();
    await a.call('turn/start', { threadId, input: [{ type: 'text', text: 'hang' }] });
    await sandbox.model.waitForRequests(1);
    await a.kill();
    const sent = Date.now();
    expect(await b.failure('turn/interrupt', { threadId })).toEqual({
      code: -32603,
      message: 'turn owner instance did not answer',
    });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(4_900);
  });
});

/** Text fragments streamed with a pause between each, so a resume lands in the middle of them. */
function slowTextReply(fragments: string[], pauseMs: number, start: Promise<unknown>): FakeReply {
  const steps: StreamStep[] = [{ chunk: chunks.role() }, { chunk: chunks.content(fragments[0]) }];
  steps.push({ waitFor: start });
  for (const text of fragments.slice(1)) steps.push({ delayMs: pauseMs }, { chunk: chunks.content(text) });
  steps.push({ chunk: chunks.finish('stop') });
  return { type: 'stream', steps };
}

interface SnapshotItem {
  itemId: string;
  type: string;
  status: string;
  payload: { text?: string };
}

describe('an instance declared lost that comes back (docs/spec/postgres.md §2)', () => {
  it('a paused owner resumed after its turn was recovered stops that turn: it stays interrupted and the next turn is undisturbed', async () => {
    // A's turn streams for ~30 s; A is paused (SIGSTOP) long enough for B to declare it lost.
    const fragments = Array.from({ length: 120 }, (_, index) => `f${index} `);
    sandbox.model.enqueue(slowTextReply(fragments, 250, Promise.resolve()));
    const release = gate();
    sandbox.model.setFallback(finishReply('B done', { gate: release.promise }));
    const { a, b, threadId, turnId } = await turnOnAStreamingToB('long');
    const aProcess = (a.child as unknown as { process: { pid: number } }).process;
    process.kill(aProcess.pid, 'SIGSTOP');
    try {
      const recovered = await b.collectUntil(isTurnCompleted(threadId), 25_000);
      expect(paramsOf(recovered[recovered.length - 1])).toMatchObject({
        turnId,
        status: 'interrupted',
        error: 'server instance lost',
      });
      // B's own turn, held at the model until A has come back and been checked.
      const second = await b.call<{ turnId: string }>('turn/start', {
        threadId,
        input: [{ type: 'text', text: 'on B' }],
      });
      await b.collectUntil((m) => m.method === 'turn/started' && paramsOf(m).turnId === second.turnId);
      process.kill(aProcess.pid, 'SIGCONT');
      // A's first heartbeat finds its row gone; give it two beats and a margin.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const afterResume = notificationsOf(await b.drain(), threadId);
      // Before: A finished its recovered turn (a second turn/completed, status completed) and sent
      // thread/status/changed(idle) while B's turn ran.
      expect(afterResume.filter((m) => m.method === 'turn/completed')).toEqual([]);
      expect(afterResume.filter((m) => m.method === 'thread/status/changed')).toEqual([]);
      // Nor any delta of it: what A read from its model while paused (processed at once on resume)
      // waits for A's first heartbeat, which finds A declared lost.
      expect(
        afterResume.filter((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).turnId === turnId),
      ).toEqual([]);
      const read = await b.call<{ thread: { status: string }; turns: Array<Record<string, unknown>> }>(
        'thread/read',
        { threadId, limit: 1 },
      );
      expect(read.thread.status).toBe('running');
      expect(read.turns.map((turn) => [turn.turnId, turn.status])).toEqual([
        [turnId, 'interrupted'],
        [second.turnId, 'running'],
      ]);
      // A's run was stopped: its stream (another ~20 s of fragments) sends nothing more.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const later = notificationsOf(await b.drain(), threadId).filter(
        (m) => m.method === 'item/agentMessage/delta' && paramsOf(m).turnId === turnId,
      );
      expect(later).toEqual([]);
      release.open();
      const done = notificationsOf(await b.collectUntil(isTurnCompleted(threadId)), threadId);
      expect(paramsOf(done[done.length - 1])).toMatchObject({ turnId: second.turnId, status: 'completed' });
      // A is a live instance again: it serves the thread.
      const readOnA = await a.call<{ turns: Array<Record<string, unknown>> }>('thread/read', { threadId });
      expect(readOnA.turns.map((turn) => turn.status)).toEqual(['interrupted', 'completed']);
    } finally {
      process.kill(aProcess.pid, 'SIGCONT');
    }
  });
});

describe('losing the database connections (docs/spec/postgres.md §2)', () => {
  it('after every connection to the database is terminated, fan-out and heartbeats come back', async () => {
    const a = await instance();
    const b = await instance();
    const { threadId } = await a.startThread();
    await b.call('thread/resume', { threadId });
    // What a database restart does to the instances: every backend of the database terminated.
    const admin = new Client({ connectionString: sandbox.storePath('shared') });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(4);
      const terminatedAt = Date.now();
      // Before: the cluster connection was never replaced, so B never saw A's turn again and the
      // heartbeats stopped for good.
      sandbox.model.enqueue(textReply(['after ', 'the ', 'restart']));
      const heartbeats = async () =>
        (await admin.query<{ beat: string }>(`SELECT "heartbeat_at" AS beat FROM "instances"`)).rows.map(
          (row) => Number(row.beat),
        );
      await eventually(async () =>
        (await heartbeats()).every((beat) => beat > terminatedAt + 500) ? true : undefined,
      );
    } finally {
      await admin.end();
    }
    await a.call('turn/start', { threadId, input: [{ type: 'text', text: 'again' }] });
    const onA = notificationsOf(await a.collectUntil(isTurnCompleted(threadId)), threadId);
    const onB = notificationsOf(await b.collectUntil(isTurnCompleted(threadId)), threadId);
    expect(onB.filter((m) => m.method === 'item/agentMessage/delta').map((m) => paramsOf(m).delta)).toEqual([
      'after ',
      'the ',
      'restart',
    ]);
    expect(onB).toEqual(onA);
  });

  it("a turn that ends while B's cluster connection is being replaced: B's subscriber still gets its end", async () => {
    const finish = gate();
    sandbox.model.enqueue(finishReply('done', { content: ['before '], gate: finish.promise }));
    const { a, b, threadId, seenOnB: beforeCut } = await turnOnAStreamingToB('go');

    const admin = new Client({ connectionString: sandbox.storePath('shared') });
    await admin.connect();
    try {
      // B's cluster connection (LISTEN), by its application_name; B's store connections and all of
      // A's stay. Terminated again whenever B has taken a new one, until A's turn has ended: A's
      // last NOTIFYs of the turn go out while B is not listening.
      const bPid = (b.child as unknown as { process: { pid: number } }).process.pid;
      const terminateB = async () =>
        (
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
            [`vv-agent-app-server cluster ${bPid}`],
          )
        ).rows.length;
      expect(await terminateB()).toBe(1);
      finish.open();
      let aDone = false;
      const onAPromise = a.collectUntil(isTurnCompleted(threadId)).finally(() => (aDone = true));
      while (!aDone) {
        await terminateB();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const onA = notificationsOf(await onAPromise, threadId);
      const onB = notificationsOf(await b.collectUntil(isTurnCompleted(threadId), 20_000), threadId);
      expect((b.child as unknown as { stderr: string }).stderr).toContain(
        `turn end(s) of thread ${threadId} missed while reconnecting, delivered from the store`,
      );
      expect(onB.slice(-2)).toEqual(onA.slice(-2));
      expect(onB.slice(-2).map((m) => m.method)).toEqual(['thread/status/changed', 'turn/completed']);
      // Every item's final state reached B as well (upserts of what its deltas built).
      const finalStates = (messages: JsonMessage[]): Record<string, Record<string, unknown>> =>
        Object.fromEntries(
          messages
            .filter((m) => m.method === 'item/completed')
            .map((m) => [String(paramsOf(m).itemId), paramsOf(m)]),
        );
      expect(finalStates([...notificationsOf(beforeCut, threadId), ...onB])).toEqual(finalStates(onA));
      expect(Object.values(finalStates(onB)).map((item) => item.type)).toContain('agentMessage');
      // Once: a later turn's end is not preceded by a second copy of this one.
      sandbox.model.enqueue(finishReply('next'));
      await a.call('turn/start', { threadId, input: [{ type: 'text', text: 'again' }] });
      const next = notificationsOf(await b.collectUntil(isTurnCompleted(threadId)), threadId);
      expect(next.filter((m) => m.method === 'turn/completed')).toHaveLength(1);
      expect(next.filter((m) => m.method === 'turn/started')).toHaveLength(1);
    } finally {
      await admin.end();
    }
  });
});

describe('thread operations across instances (docs/spec/postgres.md §2)', () => {
  it("unsubscribing on B while A runs the thread's turn does not close it; B's archive and metadata update reach A's subscriber", async () => {
    sandbox.model.setFallback(hangingTextReply(['still ', 'going']));
    const a = await instance();
    const b = await instance();
    const { threadId } = await a.startThread();
    await a.call('turn/start', { threadId, input: [{ type: 'text', text: 'work' }] });
    await a.collectUntil((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).threadId === threadId);

    // §3.8: closed needs no active turn, and the thread's turn is active (on A). Before: closed true.
    await b.call('thread/resume', { threadId });
    expect(await b.call('thread/unsubscribe', { threadId })).toEqual({
      threadId,
      subscribed: false,
      closed: false,
    });
    const read = await b.call<{ thread: { status: string } }>('thread/read', { threadId, limit: 1 });
    expect(read.thread.status).toBe('running');

    // §3.7 / docs/spec/history.md §3: every subscriber, on whichever instance. Before: nothing reached A.
    const isThreadEvent = (method: string) => (m: JsonMessage) =>
      m.method === method && paramsOf(m).threadId === threadId;
    await b.call('thread/metadata/update', { threadId, metadata: { title: 'From B' } });
    const updated = await a.waitFor(
      (m) =>
        m.method === 'thread/updated' && (paramsOf(m).thread as { threadId: string }).threadId === threadId,
    );
    expect((paramsOf(updated).thread as { metadata: unknown }).metadata).toEqual({ title: 'From B' });
    await b.call('thread/archive', { threadId });
    const onA = await a.collectUntil(
      (m) => isThreadEvent('thread/status/changed')(m) && paramsOf(m).status === 'archived',
    );
    expect(onA.filter(isThreadEvent('thread/archived')).map((m) => paramsOf(m))).toEqual([
      { threadId, archived: true },
    ]);
    await a.call('turn/interrupt', { threadId });
    await a.collectUntil(isTurnCompleted(threadId));
  });
});

describe('resume across instances (docs/spec/postgres.md §2)', () => {
  it("thread/read and thread/resume on B while A streams: A's live items, then (resume) A's later deltas gapless and without duplicates", async () => {
    const start = gate();
    const fragments = Array.from({ length: 400 }, (_, index) => `f${index} `);
    sandbox.model.enqueue(slowTextReply(fragments, 2, start.promise));
    const a = await instance();
    const b = await instance();
    const { threadId } = await a.startThread();
    const { turnId } = await a.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'stream slowly' }],
    });
    await a.collectUntil((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).threadId === threadId);
    start.open();
    // Some more deltas on A first: the snapshot B gets is in the middle of the stream.
    let seen = 0;
    await a.collectUntil((m) => m.method === 'item/agentMessage/delta' && ++seen === 5);

    // thread/read on B shows the message's text so far too (docs/spec/protocol.md §8.5), asked of A.
    const read = await b.call<{ items: SnapshotItem[] }>('thread/read', { threadId });
    const readText = read.items.find((item) => item.type === 'agentMessage')?.payload.text ?? '';
    expect(readText.startsWith('f0 f1 f2 f3 f4 f5 ')).toBe(true);

    const snapshot = await b.call<{
      thread: { status: string };
      turns: Array<{ turnId: string; status: string }>;
      items: SnapshotItem[];
    }>('thread/resume', { threadId });
    expect(snapshot.thread.status).toBe('running');
    expect(snapshot.turns).toEqual([expect.objectContaining({ turnId, status: 'running' })]);
    const message = snapshot.items.find((item) => item.type === 'agentMessage');
    expect(message).toMatchObject({ status: 'inProgress' });
    const textSoFar = message!.payload.text ?? '';
    expect(textSoFar.startsWith('f0 f1 f2 f3 f4 f5 ')).toBe(true);

    const onA = notificationsOf(await a.collectUntil(isTurnCompleted(threadId)), threadId);
    const onB = notificationsOf(await b.collectUntil(isTurnCompleted(threadId)), threadId);
    const deltasOf = (messages: JsonMessage[]) =>
      messages
        .filter((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).itemId === message!.itemId)
        .map((m) => String(paramsOf(m).delta));
    const fullText = fragments.join('');
    expect(textSoFar.length).toBeLessThan(fullText.length);
    expect(textSoFar + deltasOf(onB).join('')).toBe(fullText);
    // Exactly A's events from the seam on, in order (A's list also has the ones before).
    expect(onA.slice(onA.length - onB.length)).toEqual(onB);
  });
});

describe('approvals across instances (docs/spec/postgres.md §2)', () => {
  let wsServer: WsServerProcess | null = null;

  afterEach(async () => {
    await wsServer?.kill();
    wsServer = null;
  });

  const isApprovalRequest = (m: JsonMessage): boolean => m.method === 'approval/request' && 'id' in m;

  /** Instance A serves WebSocket clients; its owner client starts a bash turn and goes away. */
  async function ownerlessApprovalOnA(): Promise<{ threadId: string; turnId: string; request: JsonMessage }> {
    wsServer = await WsServerProcess.start(sandbox, { store: 'shared' });
    const owner = await WsPeer.connect(wsServer.url);
    await owner.initialize();
    const { threadId } = await owner.startThread({ cwd: sandbox.workspace });
    const { turnId } = await owner.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'run it' }],
    });
    const request = await owner.waitFor(isApprovalRequest);
    await owner.terminate();
    return { threadId, turnId, request };
  }

  for (const decision of ['allow', 'deny'] as const) {
    it(`a client on B that resumes gets the held approval/request and its approval/resolve (${decision}) decides it on A`, async () => {
      sandbox.model.enqueue(
        bashReply('echo moved > moved.txt', { callId: 'call_moved' }),
        finishReply('done', { content: ['done'] }),
      );
      const b = await instance();
      const { threadId, turnId, request } = await ownerlessApprovalOnA();
      await b.call('thread/resume', { threadId });
      const asked = await b.collectUntil(isApprovalRequest);
      const again = asked[asked.length - 1];
      expect(again.id).toEqual(request.id);
      expect(paramsOf(again)).toEqual(paramsOf(request));

      const requestId = String(request.id);
      expect(await b.call('approval/resolve', { threadId, turnId, requestId, decision })).toEqual({});
      const traffic = notificationsOf(await b.collectUntil(isTurnCompleted(threadId)), threadId);
      expect(traffic.find((m) => m.method === 'approval/resolved')).toBeDefined();
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ turnId, status: 'completed' });
      expect(existsSync(join(sandbox.workspace, 'moved.txt'))).toBe(decision === 'allow');
    });
  }

  it('approval/resolve on B for a turn whose owner instance is dead but not yet declared lost: -32603 after 5 s', async () => {
    sandbox.model.enqueue(bashReply('echo never > never.txt', { callId: 'call_never' }));
    const b = await instance();
    const { threadId, turnId, request } = await ownerlessApprovalOnA();
    await wsServer!.kill();
    wsServer = null;
    const sent = Date.now();
    expect(
      await b.failure('approval/resolve', {
        threadId,
        turnId,
        requestId: String(request.id),
        decision: 'allow',
      }),
    ).toEqual({ code: -32603, message: 'turn owner instance did not answer' });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(4_900);
  });
});
