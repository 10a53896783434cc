/**
 * Store faults from issue 12, against the built CLI on real SQLite files:
 * - item 2: the disk fills up in the middle of a streamed turn (a small tmpfs holds the store);
 *   the turn must not be reported `completed`, what the client was told must be what is stored,
 *   and once space is back new threads and turns persist across a restart;
 * - item 3: two servers on one store file start a turn on the same thread at once — one wins,
 *   the other gets -32602 (docs/spec/protocol.md §8.2);
 * - item 11: a crashed server's running turn whose owner pid now belongs to a live, unrelated
 *   process (here: this test process) is still recovered at restart (§8.11).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  AppServerSession,
  E2eSandbox,
  isMethod,
  isTurnCompleted,
  paramsOf,
  type JsonMessage,
} from '../helpers/app-server-session';
import sqlite3 from 'sqlite3';
import { assistantReply, finishReply, gate, hangingTextReply } from '../helpers/model-replies';
import { answeredWithin, expectAttacksHeld } from './support/attack-tally';
import { withDatabase } from './support/sqlite-inspection';

jest.setTimeout(60_000);

const RESTART_ERROR = 'server restarted before the turn finished';
const SUITE = 'store-faults';

interface StoredTurn {
  turnId: string;
  status: string;
  result: Record<string, unknown>;
}

async function turnsOf(session: AppServerSession, threadId: string): Promise<StoredTurn[]> {
  const read = await session.call<{ turns: StoredTurn[] }>('thread/read', { threadId });
  return read.turns;
}

async function startedSession(sandbox: E2eSandbox, store: string): Promise<AppServerSession> {
  const session = sandbox.spawn({ store });
  await session.initialize();
  return session;
}

/** Mounts a tmpfs of `size` at `dir`; false when this process may not mount (not root). */
function mountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0;
}

/** Writes zeros until the filesystem refuses (ENOSPC). */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(16 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe('store faults (issue 12)', () => {
  let sandbox: E2eSandbox;
  let mounted: string | null = null;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-store-faults-');
  });

  afterEach(async () => {
    // Lazily: a killed server may still hold the store open; the sandbox then removes the dir.
    if (mounted !== null) spawnSync('umount', ['-l', mounted]);
    mounted = null;
    await sandbox.dispose();
  });

  it('disk full mid-turn: the turn ends failed, as stored, and the server persists again once space is back', async () => {
    const disk = join(sandbox.root, 'disk');
    if (!mountTmpfs(disk, '3m')) {
      console.warn('skipped: cannot mount a tmpfs here (needs root)');
      return;
    }
    mounted = disk;
    const store = 'disk/store.sqlite';
    const session = await startedSession(sandbox, store);
    const { threadId } = await session.startThread();
    const midTurn = gate();
    // A long answer: its item, turn and history rows need pages the full disk cannot give.
    const answer = 'a'.repeat(400 * 1024);
    sandbox.model.enqueue(finishReply(answer, { content: ['Working'], gate: midTurn.promise }));
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'write a lot' }],
    });
    await session.waitFor(isMethod('item/agentMessage/delta'));
    fillDisk(join(disk, 'filler'));
    midTurn.open();

    const traffic = await session.collectUntil(isTurnCompleted(threadId));
    const completed = paramsOf(traffic[traffic.length - 1]);
    expect(completed).toMatchObject({ turnId, status: 'failed', completionReason: 'failed' });
    expect(String(completed.error)).toMatch(/^store error: .*full/i);
    expect(completed.finalOutput).toBeUndefined();
    const warnings = traffic.filter(isMethod('error/warning')).map(paramsOf);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'store', turnId }));

    // While the disk is full, a new thread is refused rather than acknowledged and lost.
    const refused = await session.request('thread/start', {});
    expect(refused.error).toMatchObject({ code: -32603 });

    rmSync(join(disk, 'filler'));
    const later = await session.startThread();
    sandbox.model.enqueue(finishReply('done again'));
    await session.call('turn/start', { threadId: later.threadId, input: [{ type: 'text', text: 'again' }] });
    const laterCompleted = paramsOf((await session.collectUntil(isTurnCompleted(later.threadId))).pop()!);
    expect(laterCompleted.status).toBe('completed');
    expect(await session.close()).toEqual({ code: 0, signal: null });

    const restarted = await startedSession(sandbox, store);
    const [failed] = await turnsOf(restarted, threadId);
    const [again] = await turnsOf(restarted, later.threadId);
    const listed = await restarted.call<{ threads: { threadId: string }[] }>('thread/list');
    // Lost: a thread or turn the client was told about that the restarted server does not hold as told.
    const listedIds = new Set(listed.threads.map((t) => t.threadId));
    expectAttacksHeld(SUITE, 'disk full mid-turn, then space back and restart', {
      lost:
        [threadId, later.threadId].filter((id) => !listedIds.has(id)).length +
        Number(failed?.status !== completed.status) +
        Number(again?.status !== laterCompleted.status),
    });
    expect(failed).toMatchObject({ turnId, status: 'failed', result: { error: completed.error } });
    expect(again).toMatchObject({ status: 'completed', result: { finalOutput: 'done again' } });
    expect(listed.threads.map((t) => t.threadId).sort()).toEqual([threadId, later.threadId].sort());
  });

  it('a store locked past the busy timeout mid-turn: the refused item writes are made once it frees, so every stored item equals its last notification', async () => {
    const store = 'locked.sqlite';
    const session = await startedSession(sandbox, store);
    const { threadId } = await session.startThread();
    const locked = gate();
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_info', name: 'file_info', arguments: { path: '.' } }], {
        content: ['before the lock'],
        gate: locked.promise,
      }),
      finishReply('all done', { content: ['final words'] }),
    );
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'look around' }],
    });
    await session.waitFor(isMethod('item/agentMessage/delta'));
    // Another process holds the write lock 7 s: longer than the server's 5 s busy timeout.
    const lockHolder = new sqlite3.Database(sandbox.storePath(store));
    await new Promise<void>((resolve, reject) =>
      lockHolder.exec('BEGIN EXCLUSIVE', (error) => (error ? reject(error) : resolve())),
    );
    locked.open();
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    await new Promise<void>((resolve) => lockHolder.exec('COMMIT', () => lockHolder.close(() => resolve())));

    const traffic = await session.collectUntil(isTurnCompleted(threadId), 40_000);
    expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ turnId, status: 'completed' });
    expect(traffic.filter(isMethod('error/warning')).map(paramsOf)).toContainEqual(
      expect.objectContaining({ code: 'store', turnId }),
    );
    const lastNotified = new Map<string, Record<string, unknown>>();
    for (const message of traffic)
      if (message.method === 'item/started' || message.method === 'item/completed') {
        const item = paramsOf(message);
        lastNotified.set(String(item.itemId), item);
      }
    expect([...lastNotified.values()].map((item) => item.type)).toEqual(
      expect.arrayContaining(['agentMessage', 'toolCall']),
    );
    const storedItems = async (reader: AppServerSession) =>
      (await reader.call<{ items: Record<string, unknown>[] }>('thread/read', { threadId })).items.filter(
        (item) => item.turnId === turnId,
      );
    expect(await storedItems(session)).toEqual([...lastNotified.values()]);
    expect(await session.close()).toEqual({ code: 0, signal: null });
    expect(await storedItems(await startedSession(sandbox, store))).toEqual([...lastNotified.values()]);
  });

  it('two servers on one store: concurrent turn/start on one thread — one runs, the other gets -32602', async () => {
    const first = await startedSession(sandbox, 'shared.sqlite');
    const second = await startedSession(sandbox, 'shared.sqlite');
    const { threadId } = await first.startThread();
    sandbox.model.enqueue(hangingTextReply(['Thinking']), hangingTextReply(['Thinking']));

    const input = [{ type: 'text', text: 'hi' }];
    const settled = await Promise.all([
      answeredWithin(first.request('turn/start', { threadId, input })),
      answeredWithin(second.request('turn/start', { threadId, input })),
    ]);
    const answers: JsonMessage[] = settled.flatMap((answer) => (answer ? [answer] : []));
    expectAttacksHeld(SUITE, 'two servers start a turn on one thread at once', {
      freezes: settled.length - answers.length,
    });
    const wins = answers.filter((answer) => 'result' in answer);
    const losses = answers.filter((answer) => 'error' in answer).map((answer) => answer.error);
    expect(wins).toHaveLength(1);
    expect(losses).toEqual([{ code: -32602, message: 'Thread already has an active turn' }]);

    // Again, now that the running turn is plainly in the store: the other server refuses too.
    const loser = 'result' in answers[0] ? second : first;
    expect(await loser.failure('turn/start', { threadId, input })).toEqual({
      code: -32602,
      message: 'Thread already has an active turn',
    });
    const running = await withDatabase(sandbox.storePath('shared.sqlite'), (query) =>
      query(`SELECT turn_id FROM turns WHERE thread_id = ? AND status = 'running'`, [threadId]),
    );
    expect(running).toEqual([{ turn_id: (wins[0].result as { turnId: string }).turnId }]);
  });

  it('recovers a crashed turn whose owner pid was reused by a live unrelated process', async () => {
    const store = 'reuse.sqlite';
    const crashed = await startedSession(sandbox, store);
    const { threadId } = await crashed.startThread();
    sandbox.model.enqueue(hangingTextReply(['Thinking']));
    const { turnId } = await crashed.call<{ turnId: string }>('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'hi' }],
    });
    await crashed.waitFor(isMethod('item/agentMessage/delta'));
    await crashed.kill();
    // The pid now names this (live) test process, which is not the server that owned the turn.
    await withDatabase(sandbox.storePath(store), (query) =>
      query(`UPDATE turns SET owner_pid = ? WHERE turn_id = ?`, [process.pid, turnId]),
    );

    const restarted = await startedSession(sandbox, store);
    const recovered = await turnsOf(restarted, threadId);
    // A turn left `running` forever after the restart is as lost as a missing one.
    expectAttacksHeld(SUITE, 'crashed turn whose owner pid was reused', {
      lost: Number(!recovered.some((turn) => turn.turnId === turnId && turn.status !== 'running')),
    });
    expect(recovered).toEqual([
      expect.objectContaining({ turnId, status: 'interrupted', result: { error: RESTART_ERROR } }),
    ]);
    const read = await restarted.call<{ thread: { status: string } }>('thread/read', { threadId });
    expect(read.thread.status).toBe('idle');
  });
});
