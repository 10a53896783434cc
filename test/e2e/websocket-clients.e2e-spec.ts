/**
 * Several WebSocket clients on one server (docs/spec/websocket.md §4, §5, §8): ten subscribers receive one
 * identical ordered stream; a subscriber that stops reading is closed `4001` while the others and
 * the turn keep full speed, and it catches up losslessly with `afterItemId`; SIGTERM with ten
 * connections and two running turns. The built CLI on 127.0.0.1 port 0, real `ws` clients, the
 * fake model server. Build first (`npm run build`).
 */
import { E2eSandbox, paramsOf, type JsonMessage } from '../helpers/app-server-session';
import { chunks, type FakeReply, type StreamStep } from '../helpers/fake-openai-server';
import { finishReply, hangingTextReply } from '../helpers/model-replies';
import { WsPeer, WsServerProcess } from '../helpers/websocket-server';

jest.setTimeout(120_000);

let sandbox: E2eSandbox;
let server: WsServerProcess | null = null;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-ws-clients-e2e-');
});

afterEach(async () => {
  await server?.kill();
  server = null;
  await sandbox.dispose();
});

const textInput = (text: string) => [{ type: 'text', text }];
const FRAGMENTS = 1_600;

/** `count` initialized connections; the first starts a thread, the others resume (subscribe to) it. */
async function subscribers(count: number): Promise<{ peers: WsPeer[]; threadId: string }> {
  const peers: WsPeer[] = [];
  for (let i = 0; i < count; i += 1) {
    const peer = await WsPeer.connect(server!.url);
    await peer.initialize();
    peers.push(peer);
  }
  return { peers, threadId: await sharedThread(peers) };
}

/** A new thread started by the first peer and resumed by the others. */
async function sharedThread(peers: WsPeer[]): Promise<string> {
  const { threadId } = await peers[0].startThread();
  for (const peer of peers.slice(1)) await peer.call('thread/resume', { threadId });
  return threadId;
}

const isTurnCompleted = (m: JsonMessage): boolean => m.method === 'turn/completed';

/** The notifications of one turn as a client saw them, from `turn/started` to `turn/completed`. */
function turnStream(messages: JsonMessage[]): JsonMessage[] {
  const start = messages.findIndex((m) => m.method === 'turn/started');
  const end = messages.findIndex(isTurnCompleted);
  return messages.slice(start, end + 1).filter((m) => typeof m.method === 'string');
}

describe('ten clients on one thread (docs/spec/websocket.md §5)', () => {
  it('every client receives the same notifications in the same order, each exactly once', async () => {
    server = await WsServerProcess.start(sandbox);
    const fragments = Array.from({ length: 60 }, (_, i) => `chunk-${i} `);
    sandbox.model.enqueue(finishReply('done', { content: fragments }));
    const { peers, threadId } = await subscribers(10);
    await peers[3].call('turn/start', { threadId, input: textInput('hello all') });
    const streams = await Promise.all(peers.map((peer) => peer.collectUntil(isTurnCompleted)));
    const reference = turnStream(streams[0]);
    expect(reference[0]).toMatchObject({ method: 'turn/started' });
    expect(reference.filter((m) => m.method === 'item/agentMessage/delta')).toHaveLength(60);
    for (const stream of streams) expect(turnStream(stream)).toEqual(reference);
    // Exactly once: no item completes twice, and the deltas add up to the text exactly once.
    const completedIds = reference
      .filter((m) => m.method === 'item/completed')
      .map((m) => paramsOf(m).itemId);
    expect(new Set(completedIds).size).toBe(completedIds.length);
    const deltas = reference
      .filter((m) => m.method === 'item/agentMessage/delta')
      .map((m) => String(paramsOf(m).delta))
      .join('');
    expect(deltas).toBe(fragments.join(''));
    for (const peer of peers) await peer.close();
  });
});

describe('clients that resume while a turn streams (docs/spec/websocket.md §5 thread/resume)', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** A new connection resumes the thread; its snapshot's message text plus the deltas after the answer. */
  async function resumeAndRebuild(threadId: string): Promise<{ rebuilt: string; final: string } | null> {
    const peer = await WsPeer.connect(server!.url);
    try {
      await peer.initialize();
      const snapshot = await peer.call<{
        items: Array<{ itemId: string; type: string; status: string; payload: { text: string } }>;
      }>('thread/resume', { threadId });
      const message = snapshot.items.find(
        (item) => item.type === 'agentMessage' && item.status === 'inProgress',
      );
      if (message === undefined) return null;
      const completed = await peer.waitFor(
        (m) => m.method === 'item/completed' && paramsOf(m).itemId === message.itemId,
      );
      const answered = peer.received.findIndex(
        (m) => 'result' in m && Array.isArray((m.result as { items?: unknown }).items),
      );
      const deltas = peer.received
        .slice(answered + 1)
        .filter((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).itemId === message.itemId)
        .map((m) => String(paramsOf(m).delta));
      return {
        rebuilt: message.payload.text + deltas.join(''),
        final: String((paramsOf(completed).payload as { text: string }).text),
      };
    } finally {
      await peer.close();
    }
  }

  it('each gets the text so far, then exactly the chunks not yet in it: no chunk twice, none missing', async () => {
    server = await WsServerProcess.start(sandbox);
    const fragments = Array.from({ length: 400 }, (_, i) => `c${i} `);
    const steps: StreamStep[] = [{ chunk: chunks.role() }];
    for (const text of fragments) steps.push({ chunk: chunks.content(text) }, { delayMs: 2 });
    steps.push(
      {
        chunk: chunks.toolCall({
          index: 0,
          id: 'call_finish',
          name: 'task_finish',
          arguments: '{"message":"done"}',
        }),
      },
      { chunk: chunks.finish('tool_calls') },
    );
    sandbox.model.enqueue({ type: 'stream', steps });
    const {
      peers: [starter],
      threadId,
    } = await subscribers(1);
    await starter.call('turn/start', { threadId, input: textInput('stream slowly') });
    await starter.waitFor((m) => m.method === 'item/agentMessage/delta');
    // Resumes spread over the stream, so their snapshots cut it at many different chunks.
    const resumes: Array<Promise<{ rebuilt: string; final: string } | null>> = [];
    for (let i = 0; i < 12; i += 1) {
      resumes.push(resumeAndRebuild(threadId));
      await sleep(40);
    }
    const seams = (await Promise.all(resumes)).filter((seam) => seam !== null);
    await starter.collectUntil(isTurnCompleted);
    expect(seams.length).toBeGreaterThanOrEqual(6);
    const text = fragments.join('');
    expect(seams).toEqual(seams.map(() => ({ rebuilt: text, final: text })));
    await starter.close();
  });
});

describe('a client that stops reading (docs/spec/websocket.md §4 slow consumers)', () => {
  it('is closed 4001 while nine others and the turn keep full speed; afterItemId gives it exactly what it missed', async () => {
    server = await WsServerProcess.start(sandbox);
    // ~13 MB of deltas (then the 13 MB item/completed) per turn, paced like a fast model so that
    // readers keep up: far more than the 8 MiB bound plus what the kernel buffers for a reader
    // that has not been reading (below).
    const bigReply = (): FakeReply => {
      const fragment = 'x'.repeat(8 * 1024);
      const steps: StreamStep[] = [{ chunk: chunks.role() }];
      for (let i = 0; i < FRAGMENTS; i += 1) steps.push({ chunk: chunks.content(fragment) }, { delayMs: 2 });
      const finish = finishReply('done');
      return { type: 'stream', steps: [...steps, ...(finish as { steps: StreamStep[] }).steps.slice(1)] };
    };
    const runTurn = async (readers: WsPeer[], onThread: string): Promise<number> => {
      const started = Date.now();
      await readers[0].call('turn/start', { threadId: onThread, input: textInput('stream a lot') });
      await Promise.all(readers.map((peer) => peer.collectUntil(isTurnCompleted, 90_000)));
      return Date.now() - started;
    };

    // The baseline: ten readers.
    const baseline = await subscribers(10);
    sandbox.model.enqueue(bigReply());
    const unstalledMs = await runTurn(baseline.peers, baseline.threadId);

    // Nine of them and a new connection on a new thread (whose history does not carry the first
    // turn's 13 MB). The stalled reader is new because Linux grows a socket's receive buffer with
    // what the reader has read (up to tcp_rmem's maximum, 32 MiB here): a connection that had just
    // read 26 MB at full speed could take the whole turn into its kernel buffer, never filling
    // the server's queue.
    const readers = baseline.peers.slice(0, 9);
    const stalled = await WsPeer.connect(server.url);
    await stalled.initialize();
    const threadId = await sharedThread([...readers, stalled]);
    sandbox.model.enqueue(bigReply());
    stalled.stopReadingAfter((m) => m.method === 'item/started' && paramsOf(m).type === 'agentMessage');
    const readerStreams = readers.map((peer) => peer.received.length);
    const stalledMs = await runTurn(readers, threadId);

    // The nine got everything, at full speed.
    const secondTurn = readers.map((peer, i) => turnStream(peer.received.slice(readerStreams[i])));
    for (const stream of secondTurn) expect(stream).toEqual(secondTurn[0]);
    expect(secondTurn[0].filter((m) => m.method === 'item/agentMessage/delta')).toHaveLength(FRAGMENTS);
    // One wall-clock sample each, of a turn that keeps both cores busy: 2 s of slack for load on
    // the machine. A server that waited for the stalled reader would never finish the turn.
    expect(stalledMs).toBeLessThanOrEqual(unstalledMs * 1.5 + 2_000);

    stalled.resumeReading();
    expect(await stalled.closedWithin()).toEqual({ code: 4001, reason: 'outbound queue overflow' });
    // Cut off while the turn ran: the server stopped queueing for it instead of holding the rest.
    expect(stalled.received.filter((m) => m.method === 'turn/completed')).toHaveLength(0);

    // Reconnect and resume after the most recent item it saw created (§8.8).
    const seen = stalled.received;
    const lastCreated = seen.filter((m) => m.method === 'item/started').at(-1);
    const afterItemId = String(paramsOf(lastCreated!).itemId);
    const seenCompleted = new Set(
      seen.filter((m) => m.method === 'item/completed').map((m) => paramsOf(m).itemId),
    );
    const allCompleted = readers[1].received
      .slice(readerStreams[1])
      .filter((m) => m.method === 'item/completed')
      .map((m) => paramsOf(m));
    const missed = allCompleted.filter((item) => !seenCompleted.has(item.itemId));
    expect(missed.length).toBeGreaterThan(0);
    // §8.8: every item changed after X's creation: what it missed, and X itself, whose text grew
    // after it was created, whether or not X's completion reached the client before the cut.
    const expected = allCompleted.filter(
      (item) => item.itemId === afterItemId || !seenCompleted.has(item.itemId),
    );

    const again = await WsPeer.connect(server.url);
    await again.initialize();
    const snapshot = await again.call<{ items: Array<Record<string, unknown>> }>('thread/resume', {
      threadId,
      afterItemId,
    });
    expect(snapshot.items.map((item) => item.itemId)).toEqual(expected.map((item) => item.itemId));
    expect(snapshot.items).toEqual(expected);
    for (const peer of [...baseline.peers, again]) await peer.close();
  }, 240_000);
});

describe('SIGTERM with ten connections and two running turns (docs/spec/websocket.md §4 shutdown)', () => {
  it('closes every connection 1001, stores both turns interrupted and exits 0 within 5 s', async () => {
    server = await WsServerProcess.start(sandbox);
    sandbox.model.enqueue(hangingTextReply(['still ']), hangingTextReply(['going ']));
    const first = await subscribers(5);
    const second = await subscribers(5);
    const peers = [...first.peers, ...second.peers];
    await first.peers[0].call('turn/start', { threadId: first.threadId, input: textInput('one') });
    await second.peers[0].call('turn/start', { threadId: second.threadId, input: textInput('two') });
    await Promise.all(peers.map((peer) => peer.waitFor((m) => m.method === 'item/agentMessage/delta')));

    const signalled = Date.now();
    const closes = peers.map((peer) => peer.closed);
    const exit = server.stop();
    const ready = await fetch(`${server.httpBase}/readyz`).then(
      async (response) => [response.status, await response.json()],
      () => 'refused',
    );
    const closed = await Promise.all(closes);
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(5_000);
    // Either the listener still answered (503 shutting_down) or it had already closed.
    if (ready !== 'refused') expect(ready).toEqual([503, { status: 'shutting_down' }]);
    for (const event of closed) expect(event).toEqual({ code: 1001, reason: 'server shutting down' });

    // Every connection received its turn's end before the close.
    for (const peer of peers) {
      const completed = peer.received.find(isTurnCompleted);
      expect(paramsOf(completed!)).toMatchObject({ status: 'interrupted', error: 'server shutting down' });
    }
    // And the store says so too.
    server = await WsServerProcess.start(sandbox);
    const reader = await WsPeer.connect(server.url);
    await reader.initialize();
    for (const threadId of [first.threadId, second.threadId]) {
      const read = await reader.call<{ turns: Array<Record<string, unknown>> }>('thread/read', { threadId });
      expect(read.turns).toEqual([expect.objectContaining({ status: 'interrupted' })]);
    }
    await reader.close();
  });
});
