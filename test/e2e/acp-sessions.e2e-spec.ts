/**
 * ACP sessions are App Server threads (docs/spec/acp.md §2, §6): `session/load` after a restart replays
 * what was streamed, `session/list` lists the store's threads, and a session created over ACP is
 * read through `app-server` on the same store — and a thread of `app-server` loads over ACP.
 * The real ACP SDK client and the real stdio App Server, one after the other on one sqlite file.
 */
import { join } from 'node:path';
import { E2eSandbox, isTurnCompleted } from '../helpers/app-server-session';
import { AcpClientProcess, foldUpdates } from '../helpers/acp-client-process';
import { assistantReply, finishReply } from '../helpers/model-replies';

jest.setTimeout(60_000);

let sandbox: E2eSandbox;
const clients: AcpClientProcess[] = [];

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-acp-sessions-e2e-');
});

afterEach(async () => {
  const problems = clients.flatMap((c) => c.stdoutProblems());
  for (const c of clients.splice(0)) await c.kill();
  await sandbox.dispose();
  expect(problems).toEqual([]);
});

async function acpClient(): Promise<AcpClientProcess> {
  const created = AcpClientProcess.spawn(sandbox);
  clients.push(created);
  await created.initialize();
  return created;
}

const TODOS = [
  { title: 'Write the notes', status: 'completed', priority: 'high' },
  // Every entry done: task_finish refuses to end a turn with open TODOs.
  { title: 'Review', status: 'completed', priority: 'low' },
];

describe('vv-agent acp: session/load, session/list', () => {
  it('replays after a restart exactly what was streamed, before answering', async () => {
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_todo', name: 'todo_write', arguments: { todos: TODOS } }], {
        content: ['Planning', '…'],
      }),
      assistantReply([
        { id: 'call_write', name: 'write_file', arguments: { path: 'n.txt', content: 'one\n' } },
      ]),
      finishReply('Notes written.', { content: ['Notes ', 'written.'] }),
    );
    const first = await acpClient();
    const { sessionId } = await first.agent.request('session/new', {
      cwd: sandbox.workspace,
      mcpServers: [],
    });
    expect(
      await first.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Write notes' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });
    const streamed = foldUpdates(first.updatesOf(sessionId));
    expect(streamed.plan).toEqual([
      { content: 'Write the notes', priority: 'medium', status: 'completed' },
      { content: 'Review', priority: 'medium', status: 'completed' },
    ]);
    expect(await first.close()).toEqual({ code: 0, signal: null });

    const second = await acpClient();
    expect(
      await second.agent.request('session/load', { sessionId, cwd: sandbox.workspace, mcpServers: [] }),
    ).toEqual({});
    // Everything was replayed before the response arrived.
    const replayed = foldUpdates(second.updatesOf(sessionId));
    expect(replayed.userTexts).toEqual(['Write notes']);
    expect(replayed.agentTexts).toEqual(streamed.agentTexts);
    expect(replayed.agentTexts).toEqual(['Planning…', 'Notes written.']);
    expect(replayed.toolCalls).toEqual(streamed.toolCalls);
    expect(replayed.toolCalls.map((c) => [c.toolCallId, c.kind, c.status])).toEqual([
      ['call_todo', 'other', 'completed'],
      ['call_write', 'edit', 'completed'],
    ]);
    expect(replayed.plan).toEqual(streamed.plan);
    expect(second.updatesOf(sessionId).some((u) => u.sessionUpdate === 'tool_call_update')).toBe(false);

    // The loaded session takes prompts.
    sandbox.model.enqueue(finishReply('again'));
    expect(
      await second.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'more' }] }),
    ).toEqual({ stopReason: 'end_turn' });
  });

  it("a tool call refused before it ran shows the model's arguments, live and replayed after a restart", async () => {
    // `start_line: 0` breaks read_file's schema (minimum 1): invalid_tool_arguments, never started.
    const refused = { path: 'notes.txt', start_line: 0 };
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_bad', name: 'read_file', arguments: refused }]),
      finishReply('Could not read it.'),
    );
    const first = await acpClient();
    const { sessionId } = await first.agent.request('session/new', {
      cwd: sandbox.workspace,
      mcpServers: [],
    });
    expect(
      await first.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Read notes' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });
    const shown = first.updatesOf(sessionId).filter((u) => u.sessionUpdate === 'tool_call');
    // Before this change ACP showed it with rawInput {}, title "Read file" and no locations.
    expect(shown).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'call_bad',
        title: 'Read notes.txt',
        kind: 'read',
        status: 'failed',
        rawInput: refused,
        locations: [{ path: join(sandbox.workspace, 'notes.txt') }],
        content: [
          {
            type: 'content',
            content: { type: 'text', text: expect.stringContaining('invalid_tool_arguments') },
          },
        ],
        rawOutput: { output: expect.stringContaining('invalid_tool_arguments') },
      },
    ]);
    expect(await first.close()).toEqual({ code: 0, signal: null });

    // The App Server item of a call that never ran carries no arguments (docs/spec/protocol.md §4)…
    const appServer = sandbox.spawn();
    await appServer.initialize();
    const read = (await appServer.call('thread/read', { threadId: sessionId })) as {
      items: Array<{ type: string; payload: Record<string, unknown> }>;
    };
    const item = read.items.find((i) => i.type === 'toolCall');
    expect(item?.payload).toMatchObject({ toolCallId: 'call_bad', executionStarted: false });
    expect(item?.payload).not.toHaveProperty('arguments');
    await appServer.close();

    // …and session/load still shows the call as it was streamed.
    const second = await acpClient();
    await second.agent.request('session/load', { sessionId, cwd: sandbox.workspace, mcpServers: [] });
    expect(foldUpdates(second.updatesOf(sessionId)).toolCalls).toEqual(
      foldUpdates(first.updatesOf(sessionId)).toolCalls,
    );
  });

  it('lists sessions newest first with cwd, title and updatedAt, filtered by cwd', async () => {
    const acp = await acpClient();
    const older = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const newer = await acp.agent.request('session/new', { cwd: sandbox.root, mcpServers: [] });
    const { sessions } = await acp.agent.request('session/list', {});
    expect(sessions.map((s) => s.sessionId)).toEqual([newer.sessionId, older.sessionId]);
    expect(sessions[1]).toEqual({
      sessionId: older.sessionId,
      cwd: sandbox.workspace,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const filtered = await acp.agent.request('session/list', { cwd: sandbox.workspace });
    expect(filtered.sessions.map((s) => s.sessionId)).toEqual([older.sessionId]);
    await acp.close();

    // A title set through app-server (thread metadata `title`) shows in session/list.
    const appServer = sandbox.spawn();
    await appServer.initialize();
    await appServer.call('thread/metadata/update', {
      threadId: older.sessionId,
      metadata: { title: 'Release notes' },
    });
    await appServer.close();
    const again = await acpClient();
    const listed = await again.agent.request('session/list', { cwd: sandbox.workspace });
    expect(listed.sessions).toEqual([
      expect.objectContaining({ sessionId: older.sessionId, title: 'Release notes' }),
    ]);
  });
});

describe('vv-agent acp and app-server share threads on one store', () => {
  it('reads an ACP session through app-server thread/read', async () => {
    sandbox.model.enqueue(finishReply('Hi from ACP', { content: ['Hi from ', 'ACP'] }));
    const acp = await acpClient();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    await acp.close();

    const appServer = sandbox.spawn();
    await appServer.initialize();
    const snapshot = await appServer.call<{
      thread: Record<string, unknown>;
      turns: Array<Record<string, unknown>>;
      items: Array<{ type: string; payload: Record<string, unknown> }>;
    }>('thread/read', { threadId: sessionId });
    expect(snapshot.thread).toMatchObject({
      threadId: sessionId,
      agentKey: 'default',
      cwd: sandbox.workspace,
      status: 'idle',
    });
    expect(snapshot.turns).toEqual([expect.objectContaining({ status: 'completed' })]);
    const texts = snapshot.items
      .filter((i) => i.type === 'userMessage' || i.type === 'agentMessage')
      .map((i) => [i.type, i.payload.text]);
    expect(texts).toEqual([
      ['userMessage', 'hello'],
      ['agentMessage', 'Hi from ACP'],
    ]);
  });

  it('loads an app-server thread over ACP', async () => {
    sandbox.model.enqueue(finishReply('Hi from v1', { content: ['Hi from ', 'v1'] }));
    const appServer = sandbox.spawn();
    await appServer.initialize();
    const { threadId } = await appServer.startThread({ cwd: sandbox.workspace });
    await appServer.call('turn/start', { threadId, input: [{ type: 'text', text: 'hello v1' }] });
    await appServer.collectUntil(isTurnCompleted(threadId));
    await appServer.close();

    const acp = await acpClient();
    const { sessions } = await acp.agent.request('session/list', {});
    expect(sessions.map((s) => s.sessionId)).toContain(threadId);
    await acp.agent.request('session/load', { sessionId: threadId, cwd: sandbox.workspace, mcpServers: [] });
    const replayed = foldUpdates(acp.updatesOf(threadId));
    expect(replayed.userTexts).toEqual(['hello v1']);
    expect(replayed.agentTexts).toEqual(['Hi from v1']);
  });
});
