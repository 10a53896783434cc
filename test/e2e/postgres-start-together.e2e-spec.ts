/**
 * Stress: two server instances started together on an empty PostgreSQL database, as an orchestrator
 * starts replicas (docs/spec/postgres.md §2), 20 rounds in a row, each on a fresh database. Every round
 * runs each cross-instance scenario once: an approval held on A resolved from B, fan-out of A's
 * stream to a subscriber on B with B's steer and interrupt forwarded to A, and the loss of A
 * (`kill -9`) ended on B. Before issue 45 item 2 was fixed, processes spawned in one clock tick
 * shared an instance id and most rounds failed at once.
 *
 * `VV_AGENT_TEST_HEARTBEAT_MS` shortens the heartbeat (lost after 7.5 beats, as 15 s is to 2 s),
 * so 20 losses take seconds, not minutes.
 */
import {
  E2eSandbox,
  isTurnCompleted,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
} from '../helpers/app-server-session';
import { bashReply, finishReply, hangingTextReply } from '../helpers/model-replies';
import { WsPeer, WsServerProcess } from '../helpers/websocket-server';

const ROUNDS = 20;
const HEARTBEAT_MS = 250;
/** The whole stress test stays under 3 minutes. */
jest.setTimeout(175_000);

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-pg-together-', { storeDriver: 'postgres' });
});

afterEach(async () => {
  await sandbox.dispose();
});

const text = (value: string) => [{ type: 'text', text: value }];
const isApprovalRequest = (m: JsonMessage): boolean => m.method === 'approval/request' && 'id' in m;
const isDelta = (turnId: string, delta: string) => (m: JsonMessage) =>
  m.method === 'item/agentMessage/delta' && paramsOf(m).turnId === turnId && paramsOf(m).delta === delta;

function notificationsOf(messages: JsonMessage[], threadId: string): JsonMessage[] {
  return messages.filter((m) => 'method' in m && paramsOf(m).threadId === threadId);
}

/** A (WebSocket clients) and B (one stdio client) spawned in the same tick on a new database. */
async function startTogether(store: string): Promise<{ a: WsServerProcess; b: AppServerSession }> {
  const env = { VV_AGENT_TEST_HEARTBEAT_MS: String(HEARTBEAT_MS) };
  const [a, b] = await Promise.all([
    WsServerProcess.start(sandbox, { store, env }),
    (async () => {
      const session = sandbox.spawn({ store, env });
      await session.initialize();
      return session;
    })(),
  ]);
  return { a, b };
}

/** An approval held on A, its owner gone: B resumes, gets the request, and its decision reaches A. */
async function approvalResolvedFromB(
  a: WsServerProcess,
  b: AppServerSession,
  round: number,
): Promise<string> {
  sandbox.model.enqueue(
    bashReply('true', { callId: `call_round_${round}` }),
    finishReply('approved', { content: ['approved'] }),
  );
  const owner = await WsPeer.connect(a.url);
  await owner.initialize();
  const { threadId } = await owner.startThread({ cwd: sandbox.workspace });
  const { turnId } = await owner.call<{ turnId: string }>('turn/start', { threadId, input: text('run it') });
  const request = await owner.waitFor(isApprovalRequest);
  await owner.terminate();
  await b.call('thread/resume', { threadId });
  const asked = await b.collectUntil(isApprovalRequest, 10_000);
  expect(asked[asked.length - 1].id).toEqual(request.id);
  const requestId = String(request.id);
  expect(await b.call('approval/resolve', { threadId, turnId, requestId, decision: 'allow' })).toEqual({});
  const traffic = notificationsOf(await b.collectUntil(isTurnCompleted(threadId), 10_000), threadId);
  expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ turnId, status: 'completed' });
  return threadId;
}

/** A's stream reaches B's subscriber as on A; B's steer and interrupt are answered by A. */
async function fanOutSteerInterrupt(driver: WsPeer, b: AppServerSession, threadId: string): Promise<void> {
  sandbox.model.enqueue(hangingTextReply(['live ', 'from A']));
  const { turnId } = await driver.call<{ turnId: string }>('turn/start', { threadId, input: text('stream') });
  const deltas = (messages: JsonMessage[]) =>
    messages
      .filter((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).turnId === turnId)
      .map((m) => paramsOf(m).delta);
  const onA = await driver.collectUntil(isDelta(turnId, 'from A'), 10_000);
  const onB = await b.collectUntil(isDelta(turnId, 'from A'), 10_000);
  expect(deltas(onB)).toEqual(['live ', 'from A']);
  expect(deltas(onB)).toEqual(deltas(onA));
  expect(await b.call('turn/steer', { threadId, input: text('steer from B') })).toEqual({
    threadId,
    turnId,
    queued: true,
  });
  expect(await b.call('turn/interrupt', { threadId, reason: 'stop from B' })).toEqual({
    threadId,
    turnId,
    cancelled: true,
  });
  const ended = notificationsOf(await b.collectUntil(isTurnCompleted(threadId), 10_000), threadId);
  expect(paramsOf(ended[ended.length - 1])).toMatchObject({
    turnId,
    status: 'interrupted',
    error: 'stop from B',
  });
  await driver.collectUntil((m) => m.method === 'turn/completed' && paramsOf(m).turnId === turnId, 10_000);
}

/** `kill -9` of A mid-stream: B closes the message it showed streaming and ends the turn. */
async function lossOfA(
  a: WsServerProcess,
  driver: WsPeer,
  b: AppServerSession,
  threadId: string,
): Promise<void> {
  sandbox.model.enqueue(hangingTextReply(['about ', 'to vanish']));
  const { turnId } = await driver.call<{ turnId: string }>('turn/start', { threadId, input: text('hang') });
  await b.collectUntil(isDelta(turnId, 'to vanish'), 10_000);
  await a.kill();
  const killedAt = Date.now();
  const traffic = notificationsOf(await b.collectUntil(isTurnCompleted(threadId), 10_000), threadId);
  // Lost after 7.5 beats of silence, found at the next beat.
  expect(Date.now() - killedAt).toBeLessThan(HEARTBEAT_MS * 7.5 + 3_000);
  expect(traffic.slice(-3).map((m) => m.method)).toEqual([
    'item/completed',
    'thread/status/changed',
    'turn/completed',
  ]);
  expect(paramsOf(traffic[traffic.length - 3])).toMatchObject({
    turnId,
    type: 'agentMessage',
    status: 'interrupted',
    payload: { text: 'about to vanish' },
  });
  expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
    turnId,
    status: 'interrupted',
    error: 'server instance lost',
  });
}

describe('instances started together on an empty database, 20 rounds (docs/spec/postgres.md §2)', () => {
  it('every round: approval resolved from B, fan-out with forwarded steer and interrupt, loss of A', async () => {
    const startedAt = Date.now();
    for (let round = 1; round <= ROUNDS; round += 1) {
      const { a, b } = await startTogether(`round-${round}`);
      try {
        const threadId = await approvalResolvedFromB(a, b, round);
        const driver = await WsPeer.connect(a.url);
        await driver.initialize();
        await driver.call('thread/resume', { threadId });
        await fanOutSteerInterrupt(driver, b, threadId);
        await lossOfA(a, driver, b, threadId);
      } catch (error) {
        throw new Error(`round ${round} of ${ROUNDS}: ${(error as Error).message}`, { cause: error });
      } finally {
        await Promise.all([a.kill(), b.kill()]);
      }
    }
    process.stderr.write(`${ROUNDS} start-together rounds in ${Date.now() - startedAt} ms\n`);
  });
});
