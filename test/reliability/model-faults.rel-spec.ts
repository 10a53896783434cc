/**
 * Model faults (docs/spec/protocol.md §8.3, §8.6; docs/spec/runtime.md §14.3–§14.4): a model server on 127.0.0.1 that
 * drops the connection mid-stream, hangs (the server runs with `--timeout-seconds 1`), returns
 * garbage SSE or an error payload, or answers HTTP 500. Every such turn ends `failed` with a clear
 * error (an `error` item and `error/warning run_failed` too), nothing stays running, and the
 * server keeps serving: model/list answers and a healthy turn completes afterwards. The fault turns
 * run concurrently on separate threads so the client's retry backoff overlaps.
 */
import {
  chunks,
  type FakeReply,
  FakeOpenAiServer,
  type RecordedRequest,
} from '../helpers/fake-openai-server';
import type { JsonlChild, JsonMessage } from '../helpers/jsonl-child';
import { answeredWithin, recordAttacks } from './support/attack-tally';
import {
  call,
  createWorkspace,
  startServer,
  startThread,
  stopChild,
  type Workspace,
} from './support/app-server-child';

jest.setTimeout(90_000);

const content = (text: string) => ({ chunk: chunks.content(text) });

/** Each fault, the reply the model server gives for it, and what the turn's error must say. */
const FAULTS: Record<string, { reply: FakeReply; error: RegExp }> = {
  'drop-mid-stream': {
    reply: {
      type: 'stream',
      steps: [{ chunk: chunks.role() }, content('partial '), content('answer')],
      done: false,
      end: 'drop',
    },
    error: /^llm request failed: .+/,
  },
  'drop-before-content': {
    reply: { type: 'stream', steps: [], done: false, end: 'drop' },
    error: /^llm request failed: all endpoint targets failed: local: .+ \(attempt 3\)/,
  },
  'hang-before-headers': {
    reply: { type: 'hang' },
    error:
      /^llm request failed: all endpoint targets failed: local: request timed out after 1\.000 seconds \(attempt 3\)/,
  },
  'hang-mid-stream': {
    reply: {
      type: 'stream',
      steps: [{ chunk: chunks.role() }, content('thinking…')],
      done: false,
      end: 'hang',
    },
    error: /request timed out after 1\.000 seconds/,
  },
  // §14.4 v1.2 (issue #45 item 10): a 200 that then sends only `: keep-alive` comments, five a second,
  // for a minute per attempt (until the client gives up); they are not delivery, so each attempt
  // times out after the 1 s timeout like silence, and is retried.
  'keep-alive-only': {
    reply: {
      type: 'stream',
      steps: [
        { chunk: chunks.role() },
        ...Array.from({ length: 300 }, () => [{ delayMs: 200 }, { raw: ': keep-alive\n\n' }]).flat(),
      ],
      done: false,
      end: 'hang',
    },
    error:
      /^llm request failed: all endpoint targets failed: local: request timed out after 1\.000 seconds \(attempt 3\)/,
  },
  'garbage-sse': {
    reply: { type: 'stream', steps: [{ chunk: chunks.role() }, { raw: 'data: {not json at all\n\n' }] },
    error: /invalid stream chunk/,
  },
  'error-payload': {
    reply: { type: 'stream', steps: [{ chunk: chunks.error('upstream exploded') }] },
    error: /upstream exploded/,
  },
  // §14.4 v1.1 (issue 12 item 8): bodies that used to pass as an empty or complete reply.
  'html-200': {
    reply: {
      type: 'response',
      status: 200,
      body: '<!DOCTYPE html><html><body>Gateway login</body></html>',
      headers: { 'Content-Type': 'text/html' },
    },
    error:
      /^llm request failed: all endpoint targets failed: local: unexpected response body: <!DOCTYPE html>.* \(attempt 1\)$/,
  },
  'empty-200': {
    reply: { type: 'stream', steps: [], done: false },
    error:
      /^llm request failed: all endpoint targets failed: local: unexpected response body: {2}\(attempt 1\)$/,
  },
  'clean-close-mid-text': {
    reply: { type: 'stream', steps: [{ chunk: chunks.role() }, content('The answer is')], done: false },
    error: /^llm request failed: model stream ended before completion$/,
  },
  'http-500': {
    reply: { type: 'response', status: 500, body: { error: { message: 'internal boom' } } },
    error:
      /^llm request failed: all endpoint targets failed: local: HTTP 500: .*internal boom.* \(attempt 3\)/,
  },
};

const HEALTHY: FakeReply = {
  type: 'stream',
  steps: [
    { chunk: chunks.role() },
    content('All good.'),
    {
      chunk: chunks.toolCall({
        index: 0,
        id: 'call_ok',
        name: 'task_finish',
        arguments: JSON.stringify({ message: 'All good.' }),
      }),
    },
    { chunk: chunks.finish('tool_calls') },
  ],
};

function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const users = messages.filter((message) => message.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

function faultOf(request: RecordedRequest): string | null {
  return /fault:(\S+)/.exec(lastUserText(request))?.[1] ?? null;
}

async function runTurn(
  child: JsonlChild,
  threadId: string,
  text: string,
): Promise<{ completed: JsonMessage; messages: JsonMessage[] }> {
  const ofThread = (message: JsonMessage) =>
    (message.params as { threadId?: string } | undefined)?.threadId === threadId;
  const completed = child.waitFor(
    (message) => message.method === 'turn/completed' && ofThread(message),
    60_000,
  );
  await call(child, `turn-${threadId}`, 'turn/start', { threadId, input: [{ type: 'text', text }] });
  const completion = await completed;
  return { completed: completion.params as JsonMessage, messages: child.received.filter(ofThread) };
}

describe('model faults', () => {
  let workspace: Workspace;
  let model: FakeOpenAiServer;
  let child: JsonlChild;

  beforeAll(async () => {
    model = await FakeOpenAiServer.start({
      fallback: (request) => {
        const fault = faultOf(request);
        return fault === null ? HEALTHY : FAULTS[fault].reply;
      },
    });
    workspace = createWorkspace(model.baseUrl);
  });

  afterAll(async () => {
    if (child) await stopChild(child);
    await model.close();
    workspace.dispose();
  });

  it('fails each faulty turn with a clear error and keeps serving', async () => {
    child = await startServer(workspace, ':memory:', ['--timeout-seconds', '1']);
    const kinds = Object.keys(FAULTS);
    const threads = new Map<string, string>();
    for (const kind of kinds) threads.set(kind, await startThread(child, workspace, `thread-${kind}`));

    const settled = await Promise.all(
      kinds.map((kind) => answeredWithin(runTurn(child, threads.get(kind) ?? '', `fault:${kind}`))),
    );
    // A faulty model must end the turn within the bound: a turn that never completes is a freeze.
    const frozen = kinds.filter(
      (kind, index) =>
        recordAttacks('model-faults', `model ${kind}`, { freezes: Number(settled[index] === undefined) })
          .freezes > 0,
    );
    expect(frozen).toEqual([]);
    const outcomes = settled.flatMap((outcome) => (outcome ? [outcome] : []));
    outcomes.forEach(({ completed, messages }, index) => {
      const kind = kinds[index];
      expect({ kind, status: completed.status, completionReason: completed.completionReason }).toEqual({
        kind,
        status: 'failed',
        completionReason: 'failed',
      });
      expect(completed.error).toMatch(FAULTS[kind].error);
      const warning = messages.find((message) => message.method === 'error/warning');
      expect(warning?.params).toEqual(
        expect.objectContaining({ code: 'run_failed', message: completed.error }),
      );
      const errorItem = messages.find(
        (message) =>
          message.method === 'item/completed' && (message.params as { type: string }).type === 'error',
      );
      expect(errorItem?.params).toEqual(
        expect.objectContaining({ status: 'completed', payload: { message: completed.error } }),
      );
      // Nothing of the turn stays in progress: every started item completed.
      const started = messages
        .filter((m) => m.method === 'item/started')
        .map((m) => (m.params as { itemId: string }).itemId);
      const finished = new Set(
        messages
          .filter((m) => m.method === 'item/completed')
          .map((m) => (m.params as { itemId: string }).itemId),
      );
      expect(started.filter((itemId) => !finished.has(itemId))).toEqual([]);
    });

    for (const [kind, threadId] of threads) {
      const read = await call(child, `read-${kind}`, 'thread/read', { threadId });
      expect({
        kind,
        thread: (read.thread as JsonMessage).status,
        turns: (read.turns as JsonMessage[]).map((t) => t.status),
      }).toEqual({
        kind,
        thread: 'idle',
        turns: ['failed'],
      });
      expect((read.items as JsonMessage[]).filter((item) => item.status === 'inProgress')).toEqual([]);
    }

    expect(await call(child, 'models-after', 'model/list')).toHaveProperty('models.0.id', 'kimi-k3');
    const healthyThread = await startThread(child, workspace, 'thread-healthy');
    const healthy = await runTurn(child, healthyThread, 'please succeed');
    expect(healthy.completed).toEqual(
      expect.objectContaining({ status: 'completed', finalOutput: 'All good.' }),
    );
    expect(child.process.exitCode).toBeNull();
    expect(child.invalidLines).toEqual([]);

    // An unexpected body is not retried and a cut-off answer is final: one model request each, never
    // a loop of empty replies up to max_cycles.
    for (const kind of ['html-200', 'empty-200', 'clean-close-mid-text']) {
      expect({
        kind,
        requests: model.requests.filter((request) => faultOf(request) === kind).length,
      }).toEqual({
        kind,
        requests: 1,
      });
    }
    const injected = model.requests.filter((request) => faultOf(request) !== null).length;
    const errors = kinds.map((kind, index) => `  ${kind}: ${String(outcomes[index].completed.error)}`);
    console.log(
      `model faults: ${kinds.length} fault kinds, ${injected} faulty model responses injected, ${kinds.length} turns failed cleanly, server kept serving\n${errors.join('\n')}`,
    );
  });
});
