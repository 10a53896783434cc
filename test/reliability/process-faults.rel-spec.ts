/**
 * Process faults (docs/spec/protocol.md §8.11): `kill -9` in the middle of a streaming, tool-calling turn,
 * then a restart on the same store file — 20 times over one thread. After every kill the file
 * passes `PRAGMA integrity_check` (plain sqlite3); after every restart no turn is left `running`
 * (the killed one is `interrupted` with the restart error), and every item the store held at the
 * kill is replayed — finished items unchanged, in-progress ones as `interrupted`. Items whose
 * `item/completed` reached the client must have been stored in that final state.
 */
import { join } from 'node:path';
import { chunks, FakeOpenAiServer, type StreamStep } from '../helpers/fake-openai-server';
import type { JsonlChild, JsonMessage } from '../helpers/jsonl-child';
import { expectAttacksHeld } from './support/attack-tally';
import {
  call,
  createWorkspace,
  startServer,
  startThread,
  stopChild,
  type Workspace,
} from './support/app-server-child';
import { SeededRandom } from './support/seeded-random';
import { integrityCheck, withDatabase } from './support/sqlite-inspection';

jest.setTimeout(240_000);

const KILLS = 20;
const SEED = 0x6b1119;
const RESTART_ERROR = 'server restarted before the turn finished';

type Item = { itemId: string; turnId: string; status: string; [key: string]: unknown };

/** An endless tool-using turn: each model call streams five fragments, then two file_info calls. */
function modelCall(): StreamStep[] {
  const steps: StreamStep[] = [{ chunk: chunks.role() }];
  for (let i = 0; i < 5; i += 1) steps.push({ delayMs: 10 }, { chunk: chunks.content(`step ${i} `) });
  const id = () => `call_${Math.random().toString(36).slice(2, 10)}`;
  steps.push(
    { chunk: chunks.toolCall({ index: 0, id: id(), name: 'file_info', arguments: '{"path":"."}' }) },
    {
      chunk: chunks.toolCall({ index: 1, id: id(), name: 'file_info', arguments: '{"path":"missing.txt"}' }),
    },
    { chunk: chunks.finish('tool_calls') },
  );
  return steps;
}

/** The items table as the killed process left it. */
function storedItems(store: string): Promise<Map<string, Item>> {
  return withDatabase(store, async (query) => {
    const rows = await query('SELECT "item_json" FROM "items" ORDER BY "thread_id", "position"');
    return new Map(
      rows.map((row) => {
        const item = JSON.parse(String(row.item_json)) as Item;
        return [item.itemId, item] as const;
      }),
    );
  });
}

function withoutDelta(params: unknown): Item {
  const { delta: _delta, ...item } = params as Item & { delta?: unknown };
  return item;
}

describe('kill -9 mid-turn and restart on the same store', () => {
  let workspace: Workspace;
  let model: FakeOpenAiServer;
  let child: JsonlChild | undefined;

  beforeAll(async () => {
    model = await FakeOpenAiServer.start({ fallback: () => ({ type: 'stream', steps: modelCall() }) });
    workspace = createWorkspace(model.baseUrl);
  });

  afterAll(async () => {
    if (child) await stopChild(child);
    await model.close();
    workspace.dispose();
  });

  it(`recovers ${KILLS} killed turns without corruption or lost items`, async () => {
    const random = new SeededRandom(SEED);
    const store = join(workspace.dir, 'store', 'app-server.sqlite');
    const killedTurns: string[] = [];
    let threadId = '';
    let itemsAtKill = new Map<string, Item>();
    let completedSeen = new Map<string, Item>();
    let replayedTotal = 0;
    let lost = 0;

    for (let round = 0; round <= KILLS; round += 1) {
      child = await startServer(workspace, store);
      if (round === 0) threadId = await startThread(child, workspace);
      else {
        // Recovery of the previous kill, seen through the protocol.
        const read = await call(child, `read-${round}`, 'thread/read', { threadId });
        const turns = read.turns as JsonMessage[];
        const replayed = new Map((read.items as Item[]).map((item) => [item.itemId, item]));
        const turnIds = new Set(turns.map((turn) => turn.turnId));
        const lostNow =
          killedTurns.filter((turnId) => !turnIds.has(turnId)).length +
          [...itemsAtKill.keys()].filter((itemId) => !replayed.has(itemId)).length;
        lost += lostNow;
        expectAttacksHeld('process-faults', `kill -9 mid-turn ${round} of ${KILLS}, then restart`, {
          lost: lostNow,
        });
        expect((read.thread as JsonMessage).status).toBe('idle');
        expect(turns.filter((turn) => turn.status === 'running')).toEqual([]);
        const killed = turns.find((turn) => turn.turnId === killedTurns[killedTurns.length - 1]);
        expect(killed).toEqual(
          expect.objectContaining({ status: 'interrupted', result: { error: RESTART_ERROR } }),
        );
        expect(killed?.completedAt).toEqual(expect.any(Number));
        expect(turns.map((turn) => turn.turnId)).toEqual(killedTurns);

        replayedTotal = replayed.size;
        for (const [itemId, stored] of itemsAtKill) {
          const now = replayed.get(itemId);
          if (!now) continue;
          if (stored.status === 'inProgress') {
            expect({ ...now, updatedAt: 0 }).toEqual({ ...stored, status: 'interrupted', updatedAt: 0 });
          } else expect(now).toEqual(stored);
        }
        expect([...replayed.values()].filter((item) => item.status === 'inProgress')).toEqual([]);
      }
      if (round === KILLS) break;

      // A turn that streams and calls tools until the kill.
      const killAfter = random.int(1, 40);
      const started = await call(child, `turn-${round}`, 'turn/start', {
        threadId,
        input: [{ type: 'text', text: `round ${round}` }],
      });
      const turnId = started.turnId as string;
      killedTurns.push(turnId);
      const isItemOfTurn = (message: JsonMessage) =>
        typeof message.method === 'string' &&
        message.method.startsWith('item/') &&
        (message.params as { turnId?: string }).turnId === turnId;
      const seen: JsonMessage[] = [];
      while (seen.length < killAfter) seen.push(await child.waitFor(isItemOfTurn, 30_000));
      await new Promise((resolve) => setTimeout(resolve, random.int(0, 30)));
      seen.push(...child.takeUnread().filter(isItemOfTurn));
      child.kill('SIGKILL');
      expect(await child.waitExit()).toEqual({ code: null, signal: 'SIGKILL' });
      child = undefined;

      expect(await integrityCheck(store)).toBe('ok');
      itemsAtKill = await storedItems(store);
      completedSeen = new Map(
        seen
          .filter((message) => message.method === 'item/completed')
          .map((message) => [withoutDelta(message.params).itemId, withoutDelta(message.params)]),
      );
      // What the client was told is final was durable before it was told.
      for (const [itemId, item] of completedSeen) expect(itemsAtKill.get(itemId)).toEqual(item);
      // Every item the client heard of exists in the store.
      const heard = new Set(seen.map((message) => withoutDelta(message.params).itemId));
      expect([...heard].filter((itemId) => !itemsAtKill.has(itemId))).toEqual([]);
    }

    if (child) {
      child.closeStdin();
      expect(await child.waitExit(15_000)).toEqual({ code: 0, signal: null });
      child = undefined;
    }
    expect(await integrityCheck(store)).toBe('ok');
    const running = await withDatabase(store, (query) =>
      query(`SELECT COUNT(*) AS n FROM "turns" WHERE "status" = 'running'`),
    );
    expect(running).toEqual([{ n: 0 }]);
    console.log(
      `process faults: ${KILLS} × kill -9 + restart, ${replayedTotal} items replayed, ${lost} items lost, integrity ok`,
    );
  });
});
