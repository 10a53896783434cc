/**
 * Linear streaming (docs/spec/protocol.md §4.8 v1.1) against the built CLI and a model server on 127.0.0.1:
 * a delta carries only its chunk, so a notification's size does not grow with the message, and
 * the typed client rebuilds the text from the chunks. Build first (`npm run build`).
 */
import { AppServerClient } from '../../src/client';
import { E2eSandbox, isMethod, isTurnCompleted, paramsOf } from '../helpers/app-server-session';
import { chunks, type FakeReply } from '../helpers/fake-openai-server';
import { finishReply, gate } from '../helpers/model-replies';

jest.setTimeout(60_000);

const CHUNKS = 5_000;
/** 10 characters each, all different, so that a delta cannot pass by repeating an earlier one. */
const fragments = Array.from({ length: CHUNKS }, (_, i) => `c${String(i).padStart(8, '0')} `);
const fullText = fragments.join('');

/** `finishReply` whose text streams `before`, waits for `hold`, then streams `after`. */
function pausedReply(before: string[], hold: Promise<unknown>, after: string[]): FakeReply {
  const reply = finishReply([...before, ...after].join(''), { content: before });
  if (typeof reply === 'function' || reply.type !== 'stream') throw new Error('finishReply streams');
  const resumeAt = 1 + before.length;
  reply.steps.splice(
    resumeAt,
    0,
    { waitFor: hold },
    ...after.map((text) => ({ chunk: chunks.content(text) })),
  );
  return reply;
}

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-streaming-e2e-');
});

afterEach(async () => {
  await sandbox.dispose();
});

describe('item/agentMessage/delta carries the new chunk only (§4.8 v1.1)', () => {
  it('the 5,000th delta of a long message is no larger than the 5th; the chunks concatenate to the completed text', async () => {
    sandbox.model.enqueue(finishReply(fullText, { content: fragments }));
    const session = sandbox.spawn();
    await session.initialize();
    const { threadId } = await session.startThread();
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'stream' }] });
    const traffic = await session.collectUntil(isTurnCompleted(threadId));

    const deltas = traffic.filter(isMethod('item/agentMessage/delta'));
    expect(deltas).toHaveLength(CHUNKS);
    const size = (index: number) => Buffer.byteLength(JSON.stringify(deltas[index]));
    expect(size(CHUNKS - 1)).toBeLessThanOrEqual(size(4));
    // Every delta has the same shape, so the largest is bounded by a small constant, not the text.
    expect(Math.max(...deltas.map((_, i) => size(i)))).toBeLessThan(size(4) + 16);
    deltas.forEach((message, i) => {
      const params = paramsOf(message);
      expect(params.delta).toBe(fragments[i]);
      expect(params.payload).toEqual({ text: fragments[i] });
    });

    const itemId = paramsOf(deltas[0]).itemId;
    const completed = traffic.find((m) => m.method === 'item/completed' && paramsOf(m).itemId === itemId);
    expect(paramsOf(completed!).payload).toEqual({ text: fullText });
    expect(deltas.map((m) => paramsOf(m).delta).join('')).toBe(fullText);
  });

  it('a snapshot taken mid-stream holds the text so far; later deltas append to it', async () => {
    const hold = gate();
    sandbox.model.enqueue(pausedReply(['Partial', ' text'], hold.promise, [' done']));
    const session = sandbox.spawn();
    await session.initialize();
    const { threadId } = await session.startThread();
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'go' }] });
    await session.collectUntil(
      (m) => m.method === 'item/agentMessage/delta' && paramsOf(m).delta === ' text',
    );
    const read = await session.call<{ items: Array<Record<string, unknown>> }>('thread/read', { threadId });
    const inProgress = read.items.find((item) => item.type === 'agentMessage');
    expect(inProgress).toMatchObject({ status: 'inProgress', payload: { text: 'Partial text' } });
    hold.open();
    const rest = await session.collectUntil(isTurnCompleted(threadId));
    expect(rest.filter(isMethod('item/agentMessage/delta')).map((m) => paramsOf(m).delta)).toEqual([' done']);
    const completed = rest.find((m) => m.method === 'item/completed' && paramsOf(m).type === 'agentMessage');
    expect(paramsOf(completed!).payload).toEqual({ text: 'Partial text done' });
  });
});

describe('the typed client rebuilds agentMessage text from deltas', () => {
  function spawnClient(): AppServerClient {
    return AppServerClient.spawn({
      command: process.execPath,
      ...sandbox.serverCommand({ store: ':memory:' }),
    });
  }

  it('client.agentMessages.text(itemId) is the text so far while streaming, after a mid-stream thread/read, and at completion', async () => {
    const hold = gate();
    sandbox.model.enqueue(pausedReply(['Alpha', ' beta'], hold.promise, [' gamma', ' delta']));
    const client = spawnClient();
    try {
      await client.initialize({ name: 'streaming-e2e', version: '1.0.0' });
      const { threadId } = await client.startThread({ cwd: sandbox.workspace });
      await client.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
      let itemId = '';
      let deltas = 0;
      while (deltas < 2) {
        const message = await client.tryNextMessage({ timeoutMs: 10_000 });
        if (message.method === 'item/agentMessage/delta') {
          itemId = message.params.itemId;
          deltas += 1;
        }
      }
      expect(client.agentMessages.text(itemId)).toBe('Alpha beta');
      const read = await client.readThread({ threadId });
      expect(read.items.find((item) => item.itemId === itemId)?.payload.text).toBe('Alpha beta');
      expect(client.agentMessages.text(itemId)).toBe('Alpha beta');
      hold.open();
      await client.waitFor((m) => m.method === 'item/completed' && m.params.itemId === itemId, {
        timeoutMs: 10_000,
      });
      expect(client.agentMessages.text(itemId)).toBe('Alpha beta gamma delta');
      await client.waitFor((m) => m.method === 'turn/completed', { timeoutMs: 10_000 });
    } finally {
      await client.close();
    }
  });
});
