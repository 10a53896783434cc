/**
 * `vv-agent acp` end to end (docs/spec/acp.md §1–§3, §6): the real ACP client of `@agentclientprotocol/sdk`
 * spawns the built CLI against the fake model server on 127.0.0.1 and a real sqlite store; a prompt
 * streams text and runs tools, a cancel aborts the model request, bad input is refused without
 * disturbing a running turn. Build first (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2eSandbox } from '../helpers/app-server-session';
import { AcpClientProcess, foldUpdates } from '../helpers/acp-client-process';
import { textReply } from '../helpers/fake-openai-server';
import { assistantReply, finishReply, gate, hangingTextReply } from '../helpers/model-replies';

jest.setTimeout(45_000);

let sandbox: E2eSandbox;
let client: AcpClientProcess | undefined;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-acp-e2e-');
});

afterEach(async () => {
  const problems = (await client?.killReportingStdoutProblems()) ?? [];
  client = undefined;
  expect(problems).toEqual([]);
  await sandbox.dispose();
});

async function started(): Promise<AcpClientProcess> {
  client = AcpClientProcess.spawn(sandbox);
  await client.initialize();
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    return { code, message };
  }
  throw new Error('expected the request to fail');
}

describe('vv-agent acp: initialize and a prompt that streams text and runs tools', () => {
  it('answers initialize with the advertised capabilities', async () => {
    client = AcpClientProcess.spawn(sandbox);
    const init = await client.agent.request('initialize', { protocolVersion: 7, clientCapabilities: {} });
    expect(init).toEqual({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: { list: {} },
      },
      authMethods: [],
      agentInfo: { name: 'vv-agent', title: 'vv-agent', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    });
    expect(await client.agent.request('authenticate', { methodId: 'none' })).toEqual({});
    expect(await client.close()).toEqual({ code: 0, signal: null });
  });

  it('streams agent_message_chunks, a write_file tool_call with its diff, a read_file call, and ends end_turn', async () => {
    sandbox.model.enqueue(
      assistantReply(
        [{ id: 'call_write', name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }],
        {
          content: ['Let me ', 'write it.'],
        },
      ),
      assistantReply([{ id: 'call_read', name: 'read_file', arguments: { path: 'notes.txt' } }]),
      finishReply('All done.', { content: ['All ', 'done.'] }),
    );
    const acp = await started();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect(sessionId).toMatch(/^thread_[0-9a-f]{32}$/);

    const answer = await acp.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Write notes.txt' }],
    });
    expect(answer).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('hello\n');

    const updates = acp.updatesOf(sessionId);
    const chunks = updates.filter((u) => u.sessionUpdate === 'agent_message_chunk');
    expect(chunks.map((u) => (u.content.type === 'text' ? u.content.text : ''))).toEqual([
      'Let me ',
      'write it.',
      'All ',
      'done.',
    ]);
    const notes = join(sandbox.workspace, 'notes.txt');
    const toolUpdates = updates.filter(
      (u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update',
    );
    expect(toolUpdates).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'call_write',
        title: 'Write notes.txt',
        kind: 'edit',
        status: 'in_progress',
        rawInput: { path: 'notes.txt', content: 'hello\n' },
        locations: [{ path: notes }],
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_write',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: expect.stringContaining('"ok":true') } },
          { type: 'diff', path: notes, oldText: null, newText: 'hello\n' },
        ],
        rawOutput: { output: expect.stringContaining('"written_bytes":6') },
      },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'call_read',
        title: 'Read notes.txt',
        kind: 'read',
        status: 'in_progress',
        rawInput: { path: 'notes.txt' },
        locations: [{ path: notes }],
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_read',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'hello\n' } }],
        rawOutput: { output: 'hello\n' },
      },
    ]);
    // Text, then the tools, then the answer: the updates keep the turn's order.
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'agent_message_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
      'agent_message_chunk',
    ]);
    expect(foldUpdates(updates).agentTexts).toEqual(['Let me write it.', 'All done.']);
    expect(await acp.close()).toEqual({ code: 0, signal: null });
  });
});

describe('vv-agent acp: turns that end without a finish tool', () => {
  // The production agent keeps going after a text-only answer ("continue" policy) for at most
  // 80 cycles; each reply here is text without a tool call, so the turn ends at the cycle limit.
  const PRODUCTION_MAX_CYCLES = 80;

  async function promptUntilCycleLimit(finishReason: string): Promise<unknown> {
    for (let n = 0; n < PRODUCTION_MAX_CYCLES; n += 1) {
      sandbox.model.enqueue(textReply([`part ${n + 1} `], { finishReason }));
    }
    const acp = await started();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const answer = await acp.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Write a very long essay' }],
    });
    expect(sandbox.model.requests).toHaveLength(PRODUCTION_MAX_CYCLES);
    return answer;
  }

  it('a last model response cut at the token limit (`length`, no tool call) answers max_tokens', async () => {
    expect(await promptUntilCycleLimit('length')).toEqual({ stopReason: 'max_tokens' });
  });

  it('a last model response that stopped normally answers max_turn_requests at the cycle limit', async () => {
    expect(await promptUntilCycleLimit('stop')).toEqual({ stopReason: 'max_turn_requests' });
  });
});

describe('vv-agent acp: session/cancel', () => {
  it('answers the running prompt cancelled within 5 s and aborts the model request', async () => {
    sandbox.model.enqueue(hangingTextReply(['Thinking', ' hard']));
    const acp = await started();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await acp.until(() => acp.updatesOf(sessionId).length >= 2);

    const cancelledAt = Date.now();
    await acp.agent.notify('session/cancel', { sessionId });
    expect(await prompt).toEqual({ stopReason: 'cancelled' });
    expect(Date.now() - cancelledAt).toBeLessThan(5_000);
    const closed = await sandbox.model.requests[0].closed;
    expect(closed.completed).toBe(false);

    // The session stays usable: the next prompt runs.
    sandbox.model.enqueue(finishReply('again'));
    expect(
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'once more' }] }),
    ).toEqual({
      stopReason: 'end_turn',
    });
  });
});

describe('vv-agent acp: session/cancel right behind session/prompt', () => {
  // The cancel reaches the agent while the prompt is still starting its turn (no turn to interrupt
  // yet); it must still cancel that prompt, whether the model would hang or answer at once.
  it.each([
    ['a model that never answers', () => hangingTextReply(['Thinking'])],
    ['a model that would finish at once', () => finishReply('done')],
  ])('with %s: the prompt answers cancelled', async (_label, reply) => {
    sandbox.model.enqueue(reply());
    const acp = await started();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await acp.agent.notify('session/cancel', { sessionId });
    expect(await prompt).toEqual({ stopReason: 'cancelled' });

    // The session stays usable. A turn cancelled before its first model call never took its reply
    // (issue 45 item 1: the turn is stored before its run starts), so that reply must not answer
    // the next prompt.
    expect(sandbox.model.requests.length + sandbox.model.discardQueued()).toBe(1);
    sandbox.model.enqueue(finishReply('again'));
    expect(
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'once more' }] }),
    ).toEqual({ stopReason: 'end_turn' });
  });
});

describe('vv-agent acp: shutdown', () => {
  it('SIGTERM during a prompt: the prompt answers cancelled, exit 0, and no turn is left running', async () => {
    sandbox.model.enqueue(hangingTextReply(['Working']));
    const acp = await started();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await acp.until(() => acp.updatesOf(sessionId).length >= 1);

    acp.child.kill('SIGTERM');
    expect(await prompt).toEqual({ stopReason: 'cancelled' });
    expect(await acp.waitExit(10_000)).toEqual({ code: 0, signal: null });

    const appServer = sandbox.spawn();
    await appServer.initialize();
    const { turns } = await appServer.call<{ turns: Array<{ status: string }> }>('thread/read', {
      threadId: sessionId,
    });
    expect(turns.map((turn) => turn.status)).toEqual(['interrupted']);
  });
});

describe('vv-agent acp: bad input', () => {
  it('refuses unknown sessions, invalid params (naming the member) and unknown methods, and keeps serving', async () => {
    const acp = await started();
    expect(
      await rejection(acp.agent.request('session/prompt', { sessionId: 'thread_nope', prompt: [] })),
    ).toEqual({
      code: -32002,
      message: 'Session not found: thread_nope',
    });
    expect(
      await rejection(
        acp.agent.request('session/load', {
          sessionId: 'thread_nope',
          cwd: sandbox.workspace,
          mcpServers: [],
        }),
      ),
    ).toEqual({ code: -32002, message: 'Session not found: thread_nope' });
    expect(
      await rejection(acp.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] })),
    ).toEqual({
      code: -32602,
      message: 'Invalid params: cwd: must be an absolute path',
    });
    const wrongType = await rejection(acp.agent.request('session/new', { cwd: 42, mcpServers: [] } as never));
    expect(wrongType.code).toBe(-32602);
    expect(wrongType.message).toMatch(/^Invalid params: cwd: /);
    expect(
      await rejection(
        acp.agent.request('session/new', {
          cwd: sandbox.workspace,
          mcpServers: [{ type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] }],
        }),
      ),
    ).toEqual({ code: -32602, message: 'Invalid params: mcpServers[0].type: sse servers are not supported' });
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect(
      await rejection(
        acp.agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }],
        }),
      ),
    ).toEqual({ code: -32602, message: 'Invalid params: prompt[0].type: image content is not supported' });
    expect((await rejection(acp.agent.request('session/fork', { sessionId }))).code).toBe(-32601);
    await acp.agent.notify('session/cancel', { sessionId: 'thread_nope' });
    expect(await acp.agent.request('session/list', {})).toEqual({
      sessions: [expect.objectContaining({ sessionId })],
    });
  });

  it('refuses a prompt while one is running with -32602, and the running turn goes on undisturbed', async () => {
    const open = gate();
    sandbox.model.enqueue(finishReply('first half', { content: ['first ', 'half'], gate: open.promise }));
    const acp = await started();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const running = acp.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'one' }],
    });
    await acp.until(() => acp.updatesOf(sessionId).length >= 2);

    expect(
      await rejection(
        acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'two' }] }),
      ),
    ).toEqual({
      code: -32602,
      message: 'Session already has an active prompt',
    });
    open.open();
    expect(await running).toEqual({ stopReason: 'end_turn' });
    expect(foldUpdates(acp.updatesOf(sessionId)).agentTexts).toEqual(['first half']);
    expect(sandbox.model.requests).toHaveLength(1);
  });
});
