/**
 * Overload (docs/spec/protocol.md §1.8): 1 000 requests written at once. The per-connection FIFO holds 128;
 * every request gets exactly one answer — its result or `-32001 "Server overloaded; retry
 * later."` — nothing is lost or answered twice, accepted requests are answered in arrival order,
 * client notifications are never rejected, and rejected requests succeed when retried with
 * exponential backoff. Rejected `thread/start`s create nothing.
 */
import type { JsonlChild, JsonMessage } from '../helpers/jsonl-child';
import { answeredWithin, expectAttacksHeld } from './support/attack-tally';
import {
  call,
  createWorkspace,
  startServer,
  startThread,
  stopChild,
  type Workspace,
} from './support/app-server-child';

jest.setTimeout(90_000);

const REQUESTS = 1_000;
const FIFO_CAPACITY = 128;
const OVERLOADED = { code: -32001, message: 'Server overloaded; retry later.' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every id has an answer or the bound passed; returns answers by id, in arrival order
 * (an id without an entry was not answered in time: a freeze).
 */
async function collectAnswers(
  child: JsonlChild,
  ids: ReadonlySet<string>,
  timeoutMs = 30_000,
): Promise<Map<string, JsonMessage[]>> {
  const answers = new Map<string, JsonMessage[]>();
  const deadline = Date.now() + timeoutMs;
  let answered = 0;
  while (answered < ids.size) {
    const message = await answeredWithin(
      child.waitFor(
        (m) => typeof m.id === 'string' && ids.has(m.id) && !('method' in m),
        Math.max(1, deadline - Date.now()),
      ),
    );
    if (message === undefined) break;
    const id = message.id as string;
    if (!answers.has(id)) answered += 1;
    answers.set(id, [...(answers.get(id) ?? []), message]);
  }
  return answers;
}

function requestLine(id: string, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

describe('1 000 requests written at once', () => {
  let workspace: Workspace;
  let child: JsonlChild;

  beforeEach(() => {
    workspace = createWorkspace();
  });

  afterEach(async () => {
    await stopChild(child);
    workspace.dispose();
  });

  it('answers every request once (result or -32001), keeps arrival order, and loses none on retry', async () => {
    child = await startServer(workspace, ':memory:');
    const threadId = await startThread(child, workspace);
    const methods: Array<[string, unknown]> = [
      ['model/list', {}],
      ['thread/read', { threadId }],
      ['thread/list', { limit: 5 }],
    ];
    const ids = Array.from({ length: REQUESTS }, (_, index) => `load-${index}`);
    const lines: string[] = [];
    ids.forEach((id, index) => {
      const [method, params] = methods[index % methods.length];
      lines.push(requestLine(id, method, params));
      // Notifications are never rejected and never answered.
      if (index % 5 === 0) lines.push('{"jsonrpc":"2.0","method":"initialized"}');
    });
    child.sendRaw(`${lines.join('\n')}\n`);

    const answers = await collectAnswers(child, new Set(ids));
    expectAttacksHeld('overload', `${REQUESTS} requests written at once`, {
      freezes: REQUESTS - answers.size,
    });
    await call(child, 'barrier', 'model/list');
    const duplicates = [...answers.values()].filter((list) => list.length !== 1);
    expect(duplicates).toEqual([]);
    expect(child.takeUnread().filter((message) => !('method' in message))).toEqual([]);

    const accepted: string[] = [];
    const rejected: string[] = [];
    for (const id of ids) {
      const [answer] = answers.get(id) ?? [];
      if ('result' in answer) accepted.push(id);
      else {
        expect(answer).toEqual({ jsonrpc: '2.0', id, error: OVERLOADED });
        rejected.push(id);
      }
    }
    // The FIFO was empty when the first 128 arrived: none of them may be rejected.
    expect(ids.slice(0, FIFO_CAPACITY).filter((id) => rejected.includes(id))).toEqual([]);
    expect(rejected.length).toBeGreaterThan(0);
    // Accepted requests are answered in arrival order (§1.8, §7.5).
    const order = child.received
      .filter((m) => typeof m.id === 'string' && accepted.includes(m.id) && 'result' in m)
      .map((m) => m.id);
    expect(order).toEqual(accepted);

    // Retry with exponential backoff until every rejected request has its result.
    let pending = rejected;
    let backoffMs = 2;
    let retries = 0;
    while (pending.length > 0) {
      await sleep(backoffMs);
      backoffMs = Math.min(backoffMs * 2, 200);
      const retryIds = pending.map((id, index) => `${id}-retry-${retries}-${index}`);
      const lineOf = (id: string, index: number) => {
        const [method, params] = methods[Number(id.split('-')[1]) % methods.length];
        return requestLine(retryIds[index], method, params);
      };
      child.sendRaw(`${pending.map(lineOf).join('\n')}\n`);
      const retried = await collectAnswers(child, new Set(retryIds));
      expect(retried.size).toBe(retryIds.length);
      pending = pending.filter((_, index) => !('result' in (retried.get(retryIds[index]) ?? [{}])[0]));
      retries += 1;
      expect(retries).toBeLessThan(50);
    }
    expect(child.invalidLines).toEqual([]);
    console.log(
      `overload: ${REQUESTS} requests → ${accepted.length} results, ${rejected.length} × -32001, all results after ${retries} retry rounds`,
    );
  });

  it('creates exactly one thread per accepted thread/start and none for rejected ones', async () => {
    child = await startServer(workspace, ':memory:');
    const ids = Array.from({ length: REQUESTS }, (_, index) => `start-${index}`);
    child.sendRaw(`${ids.map((id) => requestLine(id, 'thread/start', { metadata: { id } })).join('\n')}\n`);
    const answers = await collectAnswers(child, new Set(ids));
    const accepted = ids.filter((id) => 'result' in (answers.get(id)?.[0] ?? {}));
    const rejected = ids.filter((id) => answers.has(id) && !accepted.includes(id));
    for (const id of rejected) expect(answers.get(id)).toEqual([{ jsonrpc: '2.0', id, error: OVERLOADED }]);

    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page: JsonMessage = await call(
        child,
        `list-${listed.length}`,
        'thread/list',
        cursor ? { limit: 500, cursor } : { limit: 500 },
      );
      for (const thread of page.threads as Array<{ metadata: { id: string } }>)
        listed.push(thread.metadata.id);
      cursor = page.nextCursor as string | null;
    } while (cursor !== null);
    expectAttacksHeld('overload', `${REQUESTS} thread/start written at once`, {
      freezes: REQUESTS - answers.size,
      lost: accepted.filter((id) => !listed.includes(id)).length,
    });
    expect([...listed].sort()).toEqual([...accepted].sort());
    const started = child.received.filter((m) => m.method === 'thread/started').length;
    expect(started).toBe(accepted.length);
    console.log(
      `overload: ${REQUESTS} thread/start → ${accepted.length} threads, ${rejected.length} × -32001, 0 phantom threads`,
    );
  });
});
