/**
 * Slow client (docs/spec/protocol.md §1.8 outbound backpressure): the client stops reading stdout right after
 * `turn/start` while the model streams 24 000 fragments. Every delta notification carries its
 * chunk (§4.8, v1.1), so a server that buffered everything would hold every one of them as pending
 * JSON; with the bounded outbound queue (1 024 messages) its resident set must stay within
 * RSS_GROWTH_LIMIT_MIB of what it was before the turn. The server keeps reading stdin meanwhile
 * (requests sent while blocked are answered later, result or -32001), and once the client reads
 * again the turn finishes with every delta delivered in order. A SIGTERM while the client still
 * does not read ends the process within §1.9's 5 s bound with the turn written to the store
 * directly (step 5): interrupted, "server shutting down", its message interrupted, the thread idle.
 */
import { join } from 'node:path';
import { FakeOpenAiServer } from '../helpers/fake-openai-server';
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
import { floodedFragment, floodingModelCall } from './support/flooding-model-call';
import { residentMiB } from './support/process-memory';
import { withDatabase } from './support/sqlite-inspection';

jest.setTimeout(90_000);

const DELTAS = 24_000;
const RSS_GROWTH_LIMIT_MIB = 120;
const REQUESTS_WHILE_BLOCKED = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a client that stops reading stdout', () => {
  let workspace: Workspace;
  let model: FakeOpenAiServer;
  let child: JsonlChild;

  beforeAll(async () => {
    model = await FakeOpenAiServer.start({ fallback: { type: 'stream', steps: floodingModelCall(DELTAS) } });
    workspace = createWorkspace(model.baseUrl);
  });

  afterEach(async () => {
    if (child) await stopChild(child);
  });

  afterAll(async () => {
    await model.close();
    workspace.dispose();
  });

  it('keeps the server RSS bounded while blocked and finishes the turn once reading resumes', async () => {
    child = await startServer(workspace, ':memory:');
    const threadId = await startThread(child, workspace);
    await call(child, 'warm', 'model/list');
    const baselineMiB = residentMiB(child.process.pid ?? 0);

    await call(child, 'turn', 'turn/start', { threadId, input: [{ type: 'text', text: 'flood me' }] });
    child.process.stdout.pause();

    // While blocked: the model stream is consumed, requests are still read, memory stays bounded.
    const requestIds = Array.from({ length: REQUESTS_WHILE_BLOCKED }, (_, index) => `blocked-${index}`);
    child.sendRaw(
      requestIds.map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'model/list' })}\n`).join(''),
    );
    const [request] = await model.waitForRequests(1);
    let modelDone = false;
    void request.closed.then(() => (modelDone = true));
    let peakMiB = baselineMiB;
    const blockedUntil = Date.now() + 12_000;
    let settledSamples = 0;
    while (Date.now() < blockedUntil && settledSamples < 15) {
      await sleep(100);
      peakMiB = Math.max(peakMiB, residentMiB(child.process.pid ?? 0));
      if (modelDone) settledSamples += 1;
    }
    expect(child.process.exitCode).toBeNull();
    const modelDoneWhileBlocked = modelDone;
    // The run keeps consuming the model while forwarding waits (§1.8), so memory was really tested.
    expect(modelDoneWhileBlocked).toBe(true);
    const growthMiB = peakMiB - baselineMiB;
    expect(growthMiB).toBeLessThan(RSS_GROWTH_LIMIT_MIB);

    child.process.stdout.resume();
    const completed = await answeredWithin(
      child.waitFor((message) => message.method === 'turn/completed', 60_000),
    );
    const answeredIds = new Set(child.received.map((message) => message.id));
    // Once the client reads again, the turn and every request sent while it was blocked are answered.
    expectAttacksHeld('slow-client', `client stops reading during ${DELTAS} deltas`, {
      freezes: Number(completed === undefined) + requestIds.filter((id) => !answeredIds.has(id)).length,
    });
    expect(completed?.params).toEqual(
      expect.objectContaining({ threadId, status: 'completed', finalOutput: 'streamed' }),
    );

    let expectedIndex = 0;
    let outOfOrder = 0;
    let rebuilt = '';
    for (const message of child.received) {
      if (message.method !== 'item/agentMessage/delta') continue;
      const params = message.params as { delta: string; payload: { text: string } };
      if (params.delta !== floodedFragment(expectedIndex)) outOfOrder += 1;
      expectedIndex += 1;
      if (params.payload.text !== params.delta) outOfOrder += 1;
      rebuilt += params.delta;
    }
    expect({ deltas: expectedIndex, outOfOrder, textLength: rebuilt.length }).toEqual({
      deltas: DELTAS,
      outOfOrder: 0,
      textLength: DELTAS,
    });

    const answers = child.received.filter(
      (message: JsonMessage) => typeof message.id === 'string' && message.id.startsWith('blocked-'),
    );
    expect(answers.map((answer) => answer.id).sort()).toEqual([...requestIds].sort());
    const unexpected = answers.filter(
      (answer) => !('result' in answer) && (answer.error as { code: number }).code !== -32001,
    );
    expect(unexpected).toEqual([]);
    const overloaded = answers.filter((answer) => 'error' in answer).length;
    expect(child.invalidLines).toEqual([]);
    console.log(
      `slow client: ${DELTAS} deltas, RSS ${baselineMiB.toFixed(0)} → peak ${peakMiB.toFixed(0)} MiB while blocked (+${growthMiB.toFixed(0)} MiB; model stream fully consumed while blocked: ${modelDoneWhileBlocked}), ` +
        `${REQUESTS_WHILE_BLOCKED} requests sent while blocked → ${REQUESTS_WHILE_BLOCKED - overloaded} results, ${overloaded} × -32001`,
    );
    child.received.length = 0;
  });

  it('writes the turn to the store at the shutdown deadline when SIGTERM comes while output is blocked', async () => {
    // The flood, then the model holds the stream open: the run is still in its model call at SIGTERM.
    let releaseModel = (): void => undefined;
    const held = new Promise<void>((resolve) => (releaseModel = resolve));
    model.enqueue({
      type: 'stream',
      steps: [...floodingModelCall(DELTAS).slice(0, DELTAS + 1), { waitFor: held }],
    });
    const store = join(workspace.dir, 'blocked-shutdown.sqlite');
    child = await startServer(workspace, store);
    const threadId = await startThread(child, workspace);
    const { turnId } = (await call(child, 'turn', 'turn/start', {
      threadId,
      input: [{ type: 'text', text: 'flood me' }],
    })) as { turnId: string };
    await child.waitFor((message) => message.method === 'item/agentMessage/delta', 30_000);
    child.process.stdout.pause();
    // Long enough for the outbound queue to fill: the turn's forwarding then waits for the client.
    await sleep(2_000);
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    expect(await child.waitExit(15_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(7_000);
    releaseModel();

    const stored = await withDatabase(store, async (query) => ({
      turns: await query(`SELECT "status", "result_json" FROM "turns" WHERE "turn_id" = ?`, [turnId]),
      thread: await query(`SELECT "active_turn_id" FROM "threads" WHERE "thread_id" = ?`, [threadId]),
      items: await query(`SELECT "item_json" FROM "items" WHERE "turn_id" = ?`, [turnId]),
    }));
    expect(stored.turns).toHaveLength(1);
    const [turn] = stored.turns as Array<{ status: string; result_json: string }>;
    expect({ status: turn.status, ...(JSON.parse(turn.result_json) as Record<string, unknown>) }).toEqual(
      expect.objectContaining({
        status: 'interrupted',
        completionReason: 'cancelled',
        error: 'server shutting down',
      }),
    );
    expect(stored.thread).toEqual([{ active_turn_id: null }]);
    const statuses = (stored.items as Array<{ item_json: string }>).map((row) => {
      const item = JSON.parse(row.item_json) as { type: string; status: string };
      return `${item.type}:${item.status}`;
    });
    expect(statuses.sort()).toEqual(['agentMessage:interrupted', 'userMessage:completed']);
  });
});
