/**
 * Scale rows of issue 41, bounded (not timed; the timed figures are bench/websocket.bench.ts):
 * 1 000 WebSocket connections each get their `initialize` answer; 100 subscribers of one thread
 * each receive all 20 000 deltas of one turn, in order. The built CLI on 127.0.0.1 port 0, the
 * fake model server on 127.0.0.1, plain `ws` clients that keep a counter rather than every message
 * (WsPeer keeps them all: 2 000 000 parsed messages here). Build first (`npm run build`).
 */
import WebSocket from 'ws';
import { E2eSandbox, type JsonMessage } from '../helpers/app-server-session';
import { finishReply } from '../helpers/model-replies';
import { WsServerProcess } from '../helpers/websocket-server';

jest.setTimeout(120_000);

let sandbox: E2eSandbox;
let server: WsServerProcess | null = null;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-scale-e2e-');
});

afterEach(async () => {
  await server?.kill();
  server = null;
  await sandbox.dispose();
});

/**
 * One connection that answers `request` by id and counts the turn's deltas as they arrive,
 * checking each against `expected(index)`; it keeps no message.
 */
class CountingClient {
  deltas = 0;
  /** The first delta that was not the expected one (index and text), or null. */
  mismatch: { index: number; delta: string } | null = null;
  turnCompleted = false;
  expected: (index: number) => string = () => '';
  private nextId = 1;
  private readonly answers = new Map<number, (message: JsonMessage) => void>();
  private onTurnCompleted: () => void = () => undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: WebSocket.RawData) => this.onFrame(data.toString()));
    socket.on('error', () => undefined);
  }

  static connect(url: string): Promise<CountingClient> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new CountingClient(socket)));
      socket.once('error', reject);
    });
  }

  request(method: string, params: unknown): Promise<JsonMessage> {
    const id = this.nextId++;
    const answer = new Promise<JsonMessage>((resolve) => this.answers.set(id, resolve));
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer;
  }

  async initialize(): Promise<JsonMessage> {
    const answer = await this.request('initialize', { clientInfo: { name: 'scale-e2e', version: '0.0.0' } });
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'initialized' }));
    return answer;
  }

  turnDone(): Promise<void> {
    if (this.turnCompleted) return Promise.resolve();
    return new Promise((resolve) => (this.onTurnCompleted = resolve));
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close();
    return closed;
  }

  /**
   * 2 000 000 delta frames go through one Jest process: a delta frame is recognised and its
   * `delta` read as text (the fragments hold no quote or escape, and `delta` is the frame's last
   * field, docs/spec/protocol.md §4.8); every other frame is parsed.
   */
  private onFrame(text: string): void {
    if (text.includes('"method":"item/agentMessage/delta"')) {
      const start = text.lastIndexOf('"delta":"') + '"delta":"'.length;
      const delta = text.slice(start, text.indexOf('"', start));
      if (this.mismatch === null && delta !== this.expected(this.deltas))
        this.mismatch = { index: this.deltas, delta };
      this.deltas += 1;
      return;
    }
    const message = JSON.parse(text) as JsonMessage;
    if (message.method === 'turn/completed') {
      this.turnCompleted = true;
      this.onTurnCompleted();
    } else if (typeof message.id === 'number' && !('method' in message)) {
      this.answers.get(message.id)?.(message);
      this.answers.delete(message.id);
    }
  }
}

/** `count` connections, opened and initialized `window` at a time; resolves with their answers too. */
async function connectMany(
  url: string,
  count: number,
  window = 50,
): Promise<{ clients: CountingClient[]; answers: JsonMessage[] }> {
  const clients: CountingClient[] = [];
  const answers: JsonMessage[] = [];
  for (let first = 0; first < count; first += window) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(window, count - first) }, async () => {
        const client = await CountingClient.connect(url);
        return { client, answer: await client.initialize() };
      }),
    );
    for (const { client, answer } of batch) {
      clients.push(client);
      answers.push(answer);
    }
  }
  return { clients, answers };
}

describe('WebSocket scale (issue 41)', () => {
  it('1 000 connections each get their initialize answer', async () => {
    server = await WsServerProcess.start(sandbox);
    const { clients, answers } = await connectMany(server.url, 1_000);
    expect(answers).toHaveLength(1_000);
    for (const answer of answers) expect(answer).toMatchObject({ result: { protocolVersion: 'v1' } });
    const ids = new Set(answers.map((answer) => answer.id));
    expect(ids).toEqual(new Set([1]));
    await Promise.all(clients.map((client) => client.close()));
  });

  it('100 subscribers of one thread each receive all 20 000 deltas of a turn, in order', async () => {
    const DELTAS = 20_000;
    const fragment = (index: number) => `${index};`;
    sandbox.model.enqueue(
      finishReply('done', { content: Array.from({ length: DELTAS }, (_, index) => fragment(index)) }),
    );
    server = await WsServerProcess.start(sandbox);
    const { clients } = await connectMany(server.url, 100);
    const [owner, ...subscribers] = clients;
    const started = await owner.request('thread/start', { cwd: sandbox.workspace });
    const { threadId } = started.result as { threadId: string };
    const resumed = await Promise.all(
      subscribers.map((client) => client.request('thread/resume', { threadId })),
    );
    for (const answer of resumed) expect(answer).toHaveProperty('result');
    for (const client of clients) client.expected = fragment;
    const turn = await owner.request('turn/start', { threadId, input: [{ type: 'text', text: 'stream' }] });
    expect(turn).toHaveProperty('result');
    await Promise.all(clients.map((client) => client.turnDone()));
    for (const client of clients) {
      expect(client.mismatch).toBeNull();
      expect(client.deltas).toBe(DELTAS);
    }
    await Promise.all(clients.map((client) => client.close()));
  });
});
