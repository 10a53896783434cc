/**
 * MCP servers passed in ACP `session/new` (docs/spec/acp.md §2, docs/spec/mcp.md §1 source 3): the real
 * server-everything over stdio becomes the thread's server, the model calls its `echo` tool, the
 * client sees it as an `other` tool call; app-server shows the thread's servers, env masked. A
 * session/cancel while the session's server is still starting cancels the prompt (docs/spec/acp.md §2).
 */
import { join } from 'node:path';
import { E2eSandbox } from '../helpers/app-server-session';
import { AcpClientProcess } from '../helpers/acp-client-process';
import { assistantReply, finishReply, requestMessages } from '../helpers/model-replies';

jest.setTimeout(90_000);

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let sandbox: E2eSandbox;
let client: AcpClientProcess | undefined;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-acp-mcp-e2e-');
});

afterEach(async () => {
  const problems = (await client?.killReportingStdoutProblems()) ?? [];
  client = undefined;
  expect(problems).toEqual([]);
  await sandbox.dispose();
});

describe('vv-agent acp: session/new with mcpServers', () => {
  it('connects server-everything for the session and the model calls its echo tool', async () => {
    sandbox.model.enqueue(
      assistantReply([
        { id: 'call_echo', name: 'mcp__every__echo', arguments: { message: 'hello over acp' } },
      ]),
      finishReply('echoed'),
    );
    client = AcpClientProcess.spawn(sandbox);
    await client.initialize();
    const { sessionId } = await client.agent.request('session/new', {
      cwd: sandbox.workspace,
      mcpServers: [
        {
          name: 'every',
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          env: [{ name: 'E2E_SECRET', value: 's3cret' }],
        },
      ],
    });
    expect(
      await client.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'echo it' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });

    const tools = (sandbox.model.requests[0].body?.tools ?? []) as Array<{ function: { name: string } }>;
    expect(tools.map((tool) => tool.function.name)).toContain('mcp__every__echo');
    const toolMessages = requestMessages(sandbox.model.requests[1].body).filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => String(m.content)).join('\n')).toContain('hello over acp');

    const calls = client
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');
    expect(calls).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'call_echo',
        title: 'mcp__every__echo',
        kind: 'other',
        status: 'in_progress',
        rawInput: { message: 'hello over acp' },
      },
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_echo',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: expect.stringContaining('hello over acp') } },
        ],
      }),
    ]);
    await client.close();

    // The servers are the thread's (stored with it): app-server shows them, env values masked.
    const appServer = sandbox.spawn();
    await appServer.initialize();
    const { thread } = await appServer.call<{ thread: Record<string, unknown> }>('thread/read', {
      threadId: sessionId,
    });
    expect(thread.mcpServers).toEqual({
      every: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { E2E_SECRET: '***' } },
    });
  });
});

describe('vv-agent acp: session/cancel while the session MCP server is still starting', () => {
  const SLOW = join(__dirname, '..', 'fixtures', 'mcp', 'slow-start-server.mjs');

  it('the pending prompt answers cancelled at once and the model is never called', async () => {
    client = AcpClientProcess.spawn(sandbox);
    await client.initialize();
    const { sessionId } = await client.agent.request('session/new', {
      cwd: sandbox.workspace,
      // Far longer than the test: the server is still starting when the cancel comes.
      mcpServers: [{ name: 'slow', command: process.execPath, args: [SLOW, '60000'], env: [] }],
    });
    const prompt = client.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hi' }],
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const cancelledAt = Date.now();
    await client.agent.notify('session/cancel', { sessionId });
    expect(await prompt).toEqual({ stopReason: 'cancelled' });
    expect(Date.now() - cancelledAt).toBeLessThan(5_000);
    expect(sandbox.model.requests).toHaveLength(0);
    await client.close();
  });
});
