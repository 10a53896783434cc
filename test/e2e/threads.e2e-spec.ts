/**
 * Thread lifecycle end to end (docs/spec/protocol.md §3.3–§3.8, §4.1–§4.4, §7.1–§7.2, §8.1, §8.8): the real CLI
 * over stdio with a real sqlite store in a temp dir; turns are answered by a real HTTP model server on
 * 127.0.0.1. Build first (`npm run build`).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  E2eSandbox,
  ID_PATTERN,
  describeMessage,
  eventually,
  isMethod,
  isTurnCompleted,
  lastItemStates,
  paramsOf,
  stdioOnlyIt,
  currentTransport,
  type AppServerSession,
  type SpawnOptions,
} from '../helpers/app-server-session';
import { finishReply, gate } from '../helpers/model-replies';

import { freePort } from '../support/postgres-cluster';
import { STORE_DRIVERS } from '../support/store-drivers';

jest.setTimeout(45_000);

// docs/spec/postgres.md §1: the thread and persistence behaviour holds on both store drivers.
describe.each(STORE_DRIVERS)(`threads over ${currentTransport()} [%s store]`, (storeDriver) => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-threads-e2e-', { storeDriver });
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  async function ready(options?: SpawnOptions): Promise<AppServerSession> {
    const session = sandbox.spawn(options);
    await session.initialize();
    return session;
  }

  const textInput = (text: string) => [{ type: 'text', text }];
  const UNKNOWN_THREAD = 'thread_00000000000000000000000000000000';
  const THREAD_NOT_FOUND = { code: -32020, message: 'Thread not found' };

  type ThreadView = Record<string, unknown>;
  interface ReadResult {
    thread: ThreadView;
    turns: Array<Record<string, unknown>>;
    items: Array<Record<string, unknown>>;
  }
  interface ListResult {
    threads: ThreadView[];
    nextCursor: string | null;
  }

  function invalidParams(path: string, message: string) {
    return {
      code: -32602,
      message: `Invalid params: ${path === '' ? 'params' : path} ${message}`,
      data: { errors: [{ path, message }] },
    };
  }

  /** §3.6 order: updatedAt descending, ties by threadId descending. */
  function listOrder(a: ThreadView, b: ThreadView): number {
    const byTime = Number(b.updatedAt) - Number(a.updatedAt);
    if (byTime !== 0) return byTime;
    return String(b.threadId) < String(a.threadId) ? -1 : String(b.threadId) > String(a.threadId) ? 1 : 0;
  }

  describe('thread/start', () => {
    it('answers with the thread, then sends thread/started with params equal to the result', async () => {
      const session = await ready();
      const result = await session.call<Record<string, unknown>>('thread/start');
      expect(result).toEqual({
        threadId: expect.stringMatching(ID_PATTERN.thread),
        agentKey: 'default',
        cwd: null,
        status: 'idle',
      });
      expect(await session.next()).toEqual({ jsonrpc: '2.0', method: 'thread/started', params: result });

      const custom = await session.call<Record<string, unknown>>('thread/start', {
        agentKey: '',
        cwd: 'relative/dir',
        metadata: { title: 'T', nested: { list: [1, 'two', null] } },
        unknownMember: true,
      });
      expect(custom).toEqual({
        threadId: expect.stringMatching(ID_PATTERN.thread),
        agentKey: '',
        cwd: 'relative/dir',
        status: 'idle',
      });
      expect(custom.threadId).not.toBe(result.threadId);
      expect(await session.next()).toEqual({ jsonrpc: '2.0', method: 'thread/started', params: custom });

      const read = await session.call<ReadResult>('thread/read', { threadId: custom.threadId });
      expect(read).toEqual({
        thread: {
          threadId: custom.threadId,
          agentKey: '',
          cwd: 'relative/dir',
          status: 'idle',
          metadata: { title: 'T', nested: { list: [1, 'two', null] } },
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
          archivedAt: null,
          forkedFrom: null,
          // docs/spec/sandbox.md §1: the thread's effective mode (the server's default).
          sandbox: 'workspace-write',
        },
        turns: [],
        items: [],
      });
      expect(Number.isInteger(read.thread.createdAt)).toBe(true);
      expect(read.thread.updatedAt).toBe(read.thread.createdAt);
      expect(Math.abs(Number(read.thread.createdAt) - Date.now())).toBeLessThan(60_000);
    });

    it('validates its params and creates nothing on failure', async () => {
      const session = await ready();
      expect(await session.failure('thread/start', { metadata: null })).toEqual(
        invalidParams('/metadata', 'must be an object'),
      );
      expect(await session.failure('thread/start', { cwd: 5 })).toEqual(
        invalidParams('/cwd', 'must be a string or null'),
      );
      expect(await session.failure('thread/start', { agentKey: 1 })).toEqual(
        invalidParams('/agentKey', 'must be a string'),
      );
      expect(await session.failure('thread/start', 'x')).toEqual(invalidParams('', 'must be an object'));
      expect(await session.call('thread/start', { cwd: null })).toMatchObject({ cwd: null });
      const list = await session.call<ListResult>('thread/list');
      expect(list.threads).toHaveLength(1);
    });
  });

  describe('thread/list', () => {
    it('filters archived threads, orders by updatedAt desc, pages with nextCursor and rejects bad cursors', async () => {
      const session = await ready();
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await session.startThread({ metadata: { n: i } })).threadId);
      for (const archived of [ids[1], ids[3]]) {
        await session.call('thread/archive', { threadId: archived });
      }
      await session.drain();

      const all: ThreadView[] = [];
      for (const threadId of ids)
        all.push((await session.call<ReadResult>('thread/read', { threadId })).thread);
      const active = all.filter((t) => t.archivedAt === null).sort(listOrder);
      const archived = all.filter((t) => t.archivedAt !== null).sort(listOrder);
      const everything = [...all].sort(listOrder);

      expect(await session.call('thread/list')).toEqual({ threads: active, nextCursor: null });
      expect(await session.call('thread/list', { includeArchived: true })).toEqual({
        threads: everything,
        nextCursor: null,
      });
      expect(await session.call('thread/list', { archived: true })).toEqual({
        threads: archived,
        nextCursor: null,
      });
      expect(await session.call('thread/list', { archived: false, includeArchived: true })).toEqual({
        threads: active,
        nextCursor: null,
      });
      expect(archived.every((t) => t.status === 'archived')).toBe(true);
      expect(active.every((t) => t.status === 'idle')).toBe(true);
      // A page exactly as long as what remains has no cursor.
      expect(await session.call('thread/list', { limit: 3 })).toEqual({ threads: active, nextCursor: null });

      const pages: ThreadView[][] = [];
      let cursor: string | null = null;
      do {
        const page: ListResult = await session.call('thread/list', {
          includeArchived: true,
          limit: 2,
          ...(cursor === null ? {} : { cursor }),
        });
        pages.push(page.threads);
        cursor = page.nextCursor;
        if (cursor !== null) expect(typeof cursor).toBe('string');
      } while (cursor !== null && pages.length < 10);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(everything);

      expect(await session.failure('thread/list', { cursor: 'not-a-cursor' })).toEqual(
        invalidParams('/cursor', 'is invalid'),
      );
      for (const limit of [0, 501, 1.5]) {
        expect(await session.failure('thread/list', { limit })).toEqual(
          invalidParams('/limit', 'must be an integer between 1 and 500'),
        );
      }
      expect(await session.failure('thread/list', { archived: 'yes' })).toEqual(
        invalidParams('/archived', 'must be a boolean'),
      );

      // A well-formed cursor from another store names no thread here: invalid.
      const other = await ready({ store: 'other.sqlite' });
      for (let i = 0; i < 2; i += 1) await other.startThread();
      const foreign = await other.call<ListResult>('thread/list', { limit: 1 });
      expect(foreign.nextCursor).not.toBeNull();
      expect(await session.failure('thread/list', { cursor: foreign.nextCursor })).toEqual(
        invalidParams('/cursor', 'is invalid'),
      );
    });
  });

  describe('thread/archive', () => {
    it('archives (response, thread/archived, status archived), refuses turns with -32021 and allows re-archiving', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      const before = (await session.call<ReadResult>('thread/read', { threadId })).thread;

      expect(await session.call('thread/archive', { threadId })).toEqual({ threadId, archived: true });
      const notes = await session.drain();
      expect(notes).toEqual([
        { jsonrpc: '2.0', method: 'thread/archived', params: { threadId, archived: true } },
        { jsonrpc: '2.0', method: 'thread/status/changed', params: { threadId, status: 'archived' } },
      ]);
      const archived = (await session.call<ReadResult>('thread/read', { threadId })).thread;
      expect(archived.status).toBe('archived');
      expect(archived.archivedAt).toEqual(expect.any(Number));
      expect(archived.updatedAt).toBe(archived.archivedAt);
      expect(Number(archived.updatedAt)).toBeGreaterThanOrEqual(Number(before.updatedAt));

      expect(await session.failure('turn/start', { threadId, input: textInput('hi') })).toEqual({
        code: -32021,
        message: 'Thread archived',
      });
      expect(sandbox.model.requests).toHaveLength(0);

      expect(await session.call('thread/archive', { threadId })).toEqual({ threadId, archived: true });
      expect((await session.drain()).map(describeMessage)).toEqual([
        'thread/archived',
        'thread/status/changed(archived)',
      ]);
      const again = (await session.call<ReadResult>('thread/read', { threadId })).thread;
      expect(Number(again.archivedAt)).toBeGreaterThanOrEqual(Number(archived.archivedAt));

      // Archived threads can be resumed and report `archived`.
      const resumed = await session.call<ReadResult>('thread/resume', { threadId });
      expect(resumed.thread.status).toBe('archived');
    });

    it('notifies the requester even when it is not subscribed, and archiving clears the closed flag', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      expect(await session.call('thread/unsubscribe', { threadId })).toEqual({
        threadId,
        subscribed: false,
        closed: true,
      });
      await session.drain();
      expect((await session.call<ReadResult>('thread/read', { threadId })).thread.status).toBe('closed');

      await session.call('thread/archive', { threadId });
      expect((await session.drain()).map(describeMessage)).toEqual([
        'thread/archived',
        'thread/status/changed(archived)',
      ]);
      expect((await session.call<ReadResult>('thread/read', { threadId })).thread.status).toBe('archived');
    });
  });

  describe('thread/unsubscribe', () => {
    it('closes an idle thread (response, thread/closed, status closed) until a resume clears the flag', async () => {
      const session = await ready();
      const { threadId } = await session.startThread();
      const other = await session.startThread();

      expect(await session.call('thread/unsubscribe', { threadId })).toEqual({
        threadId,
        subscribed: false,
        closed: true,
      });
      expect(await session.drain()).toEqual([
        { jsonrpc: '2.0', method: 'thread/closed', params: { threadId } },
        { jsonrpc: '2.0', method: 'thread/status/changed', params: { threadId, status: 'closed' } },
      ]);
      expect((await session.call<ReadResult>('thread/read', { threadId })).thread.status).toBe('closed');
      const list = await session.call<ListResult>('thread/list');
      expect(Object.fromEntries(list.threads.map((t) => [t.threadId, t.status]))).toEqual({
        [threadId]: 'closed',
        [other.threadId]: 'idle',
      });

      // Unsubscribing again (not subscribed) still answers closed and notifies again (§8.1).
      expect(await session.call('thread/unsubscribe', { threadId })).toEqual({
        threadId,
        subscribed: false,
        closed: true,
      });
      expect((await session.drain()).map(describeMessage)).toEqual([
        'thread/closed',
        'thread/status/changed(closed)',
      ]);

      // Resume without subscribing still clears the closed flag; no notifications (§3.4).
      const resumed = await session.call<ReadResult>('thread/resume', { threadId, subscribe: false });
      expect(resumed.thread.status).toBe('idle');
      expect(await session.drain()).toEqual([]);
      expect((await session.call<ReadResult>('thread/read', { threadId })).thread.status).toBe('idle');
    });

    it('does not close a thread with a running turn, and stops that turn traffic for the requester', async () => {
      const hold = gate();
      sandbox.model.enqueue(
        finishReply('finished quietly', { content: ['finished quietly'], gate: hold.promise }),
      );
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('go'),
      });
      await session.waitFor(isMethod('item/agentMessage/delta'));

      expect(await session.call('thread/unsubscribe', { threadId })).toEqual({
        threadId,
        subscribed: false,
        closed: false,
      });
      const beforeResponse = await session.drain();
      expect(beforeResponse.some((m) => m.method === 'thread/closed')).toBe(false);
      hold.open();

      const finished = await eventually(async () => {
        const read = await session.call<ReadResult>('thread/read', { threadId });
        return read.turns[0]?.status === 'completed' ? read : undefined;
      });
      expect(finished.thread.status).toBe('idle');
      expect(finished.turns[0].turnId).toBe(turnId);
      // Nothing of the turn reached the unsubscribed connection after the unsubscribe response.
      expect(await session.drain()).toEqual([]);
      expect(session.child.received.some((m) => m.method === 'turn/completed')).toBe(false);

      // turn/start subscribes the requester again (§3.9 step 8): the next turn's traffic arrives.
      sandbox.model.enqueue(finishReply('loud', { content: ['loud'] }));
      await session.call('turn/start', { threadId, input: textInput('again') });
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
        status: 'completed',
        finalOutput: 'loud',
      });
    });
  });

  describe('unknown threads and params', () => {
    it('answers -32020 "Thread not found" for every thread method and turn/start', async () => {
      const session = await ready();
      for (const method of ['thread/resume', 'thread/read', 'thread/archive', 'thread/unsubscribe']) {
        expect(await session.failure(method, { threadId: UNKNOWN_THREAD })).toEqual(THREAD_NOT_FOUND);
      }
      expect(
        await session.failure('turn/start', { threadId: UNKNOWN_THREAD, input: textInput('x') }),
      ).toEqual(THREAD_NOT_FOUND);
      // Validation precedes the lookup (§3.0).
      for (const method of ['thread/resume', 'thread/read', 'thread/archive', 'thread/unsubscribe']) {
        expect(await session.failure(method)).toEqual({ code: -32602, message: 'Missing params' });
        expect(await session.failure(method, {})).toEqual(invalidParams('/threadId', 'is required'));
        expect(await session.failure(method, { threadId: 7 })).toEqual(
          invalidParams('/threadId', 'must be a string'),
        );
      }
      expect(await session.failure('thread/read', { threadId: UNKNOWN_THREAD, limit: 0 })).toEqual(
        invalidParams('/limit', 'must be a positive integer'),
      );
      expect(await session.failure('thread/resume', { threadId: UNKNOWN_THREAD, subscribe: 'yes' })).toEqual(
        invalidParams('/subscribe', 'must be a boolean'),
      );
      expect(await session.drain()).toEqual([]);
    });
  });

  describe('thread/resume and thread/read with afterItemId', () => {
    it('filters items by latest change after the given item, honours limit, and returns all for an unknown id (§8.8)', async () => {
      sandbox.model.enqueue(finishReply('All good.', { content: ['All good.'] }));
      const session = await ready();
      const { threadId } = await session.startThread();
      await session.call('turn/start', { threadId, input: textInput('check') });
      const traffic = await session.collectUntil(isTurnCompleted(threadId));
      const items = lastItemStates(traffic);
      expect(items.map((i) => i.type)).toEqual(['userMessage', 'agentMessage', 'toolCall']);
      const [user, agent, tool] = items;

      const resumeAll = await session.call<ReadResult>('thread/resume', { threadId });
      expect(resumeAll.thread.status).toBe('idle');
      expect(resumeAll.turns).toHaveLength(1);
      expect(resumeAll.items).toEqual(items);
      expect(await session.drain()).toEqual([]);

      const after = async (afterItemId: string, extra: Record<string, unknown> = {}) =>
        (await session.call<ReadResult>('thread/resume', { threadId, afterItemId, ...extra })).items;
      expect(await after(String(user.itemId))).toEqual([agent, tool]);
      expect(await after(String(agent.itemId))).toEqual([agent, tool]);
      expect(await after(String(tool.itemId))).toEqual([tool]);
      expect(await after('item_ffffffffffffffffffffffffffffffff')).toEqual(items);
      expect(await after(String(user.itemId), { subscribe: false })).toEqual([agent, tool]);

      const read = async (params: Record<string, unknown>) =>
        (await session.call<ReadResult>('thread/read', { threadId, ...params })).items;
      expect(await read({ afterItemId: user.itemId, limit: 1 })).toEqual([agent]);
      expect(await read({ limit: 2 })).toEqual([user, agent]);
      expect(await read({ afterItemId: 'item_unknown' })).toEqual(items);
    });

    it('shows a running turn with result {} and the in-progress item in its latest streamed state', async () => {
      const hold = gate();
      sandbox.model.enqueue(
        finishReply('Partial text done', { content: ['Partial', ' text'], gate: hold.promise }),
      );
      const session = await ready();
      const { threadId } = await session.startThread();
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput('go'),
      });
      const live = await session.collectUntil(
        (m) => m.method === 'item/agentMessage/delta' && paramsOf(m).delta === ' text',
      );

      const resumed = await session.call<ReadResult>('thread/resume', { threadId });
      expect(resumed.thread.status).toBe('running');
      expect(resumed.turns).toEqual([
        {
          turnId,
          threadId,
          runId: expect.stringMatching(ID_PATTERN.run),
          status: 'running',
          startedAt: expect.any(Number),
          completedAt: null,
          input: textInput('go'),
          result: {},
          sandbox: 'workspace-write',
        },
      ]);
      expect(resumed.items).toEqual(lastItemStates(live));
      const listed = await session.call<ListResult>('thread/list');
      expect(listed.threads.map((t) => [t.threadId, t.status])).toEqual([[threadId, 'running']]);
      expect(resumed.items[1]).toMatchObject({
        type: 'agentMessage',
        status: 'inProgress',
        payload: { text: 'Partial text' },
      });

      hold.open();
      const rest = await session.collectUntil(isTurnCompleted(threadId));
      // Subscribed twice (creator + resume) still means each notification once.
      expect(rest.filter((m) => m.method === 'turn/completed')).toHaveLength(1);
      const final = await session.call<ReadResult>('thread/read', { threadId });
      expect(final.items).toEqual(lastItemStates([...live, ...rest]));
    });
  });

  describe('CLI startup (§12.3)', () => {
    stdioOnlyIt(
      'exits 2 with the loader message for an invalid scripted model file, before reading stdin',
      async () => {
        const scriptPath = join(sandbox.root, 'broken-script.json');
        writeFileSync(scriptPath, '{"steps": not json');
        const session = sandbox.spawn({ env: { VV_AGENT_SCRIPTED_MODEL_FILE: scriptPath } });
        expect(await session.close()).toEqual({ code: 2, signal: null });
        expect(session.child.received).toEqual([]);
        expect(session.child.invalidLines).toEqual([]);
        expect(session.child.stderr).toMatch(
          new RegExp(`^invalid scripted model file ${escapeRegExp(scriptPath)}: .+`),
        );
      },
    );

    stdioOnlyIt(
      'exits 1 with "failed to open App Server store: <cause>" when the store cannot be opened',
      async () => {
        // PostgreSQL: nothing listens on the port; the password must not appear anywhere (docs/spec/postgres.md §1).
        const session =
          storeDriver === 'sqlite'
            ? sandbox.spawn({ store: join('settings.json', 'store.sqlite') })
            : sandbox.spawn({ storeArg: `postgres://vv:Sup3r%2Fsecret@127.0.0.1:${await freePort()}/vv` });
        const started = Date.now();
        expect(await session.close()).toEqual({ code: 1, signal: null });
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(session.child.received).toEqual([]);
        expect(session.child.stderr).toMatch(
          storeDriver === 'sqlite'
            ? /failed to open App Server store: .+/
            : /failed to open App Server store: connect ECONNREFUSED 127\.0\.0\.1:\d+\n/,
        );
        expect(session.child.stderr).not.toMatch(/Sup3r/);
      },
    );

    stdioOnlyIt(
      'a store directory that cannot be created (under /proc) fails the start instead of hanging',
      async () => {
        if (storeDriver !== 'sqlite' || !existsSync('/proc/self')) return;
        const session = sandbox.spawn({ storeArg: '/proc/vv-agent-no-such-dir/store.sqlite' });
        expect(await session.close()).toEqual({ code: 1, signal: null });
        expect(session.child.received).toEqual([]);
        expect(session.child.stderr).toBe(
          "failed to open App Server store: ENOENT: no such file or directory, mkdir '/proc/vv-agent-no-such-dir'\n",
        );
      },
    );

    it('keeps threads across restarts of the same store file', async () => {
      const first = await ready({ store: 'persist.sqlite' });
      const { threadId } = await first.startThread({ metadata: { keep: true } });
      expect(await first.close()).toEqual({ code: 0, signal: null });
      const second = await ready({ store: 'persist.sqlite' });
      const read = await second.call<ReadResult>('thread/read', { threadId });
      expect(read.thread).toMatchObject({ threadId, status: 'idle', metadata: { keep: true } });
    });
  });

  function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
});
