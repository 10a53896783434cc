/**
 * The approval flow end to end (docs/spec/protocol.md §9, §3.13, §4.11–§4.14) through the real module,
 * runtime and tools: every way a request is resolved, exactly one `approval/resolved`, the owner-only
 * server request, session grants and the policies.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { finish, type ScriptObjectStep } from '../../../../src/runtime/model/scripted-model';
import {
  gatedStep,
  LiveAppServer,
  text,
  type WireClient,
  type WireMessage,
} from '../../support/live-app-server';

function bash(command: string, id = 'call_bash'): ScriptObjectStep {
  return { content: 'Running it.', tool_calls: [{ id, name: 'bash', arguments: { command } }] };
}

const WRITE_OUT = 'echo hi > out.txt';

describe('approval flow', () => {
  let live: LiveAppServer;

  afterEach(async () => {
    await live?.close();
  });

  async function startTurn(
    client: WireClient,
    threadId: string,
    input = text('do it'),
  ): Promise<{ turnId: string; from: number }> {
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input });
    return { turnId, from };
  }

  function completion(client: WireClient, turnId: string, from: number): Promise<WireMessage> {
    return client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });
  }

  it('allows through the owner answer: §7.5 order, request id = requestId, the tool runs', async () => {
    live = await LiveAppServer.start({ steps: [bash(WRITE_OUT), finish('Wrote it.')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from });
    const requestId = request.id as string;
    expect(requestId).toMatch(/^approval_[0-9a-f]{32}$/);
    const expectedParams = {
      requestId,
      threadId,
      turnId,
      toolCallId: 'call_bash',
      toolName: 'bash',
      preview: `Run ${WRITE_OUT}`,
      arguments: { command: WRITE_OUT },
    };
    expect(request.params).toEqual(expectedParams);
    const requested = client.traffic(from).find((m) => m.method === 'approval/requested');
    expect(requested?.params).toEqual(expectedParams);

    client.respond(requestId, { decision: 'allow' });
    await completion(client, turnId, from);
    const labels = client.labels(from);
    const at = labels.indexOf('item/started(approval)');
    expect(labels.slice(at, at + 8)).toEqual([
      'item/started(approval)',
      'approval/requested',
      'approval/request',
      'approval/resolved',
      'item/completed(approval)',
      'item/started(toolCall)',
      'item/toolCall/delta(toolCall)',
      'item/completed(toolCall)',
    ]);
    const traffic = client.traffic(from);
    expect(traffic[at].params).toMatchObject({
      type: 'approval',
      status: 'inProgress',
      payload: { requestId, toolCallId: 'call_bash', toolName: 'bash', preview: `Run ${WRITE_OUT}` },
    });
    expect(traffic[at + 3].params).toEqual({ threadId, turnId, requestId, decision: 'allow' });
    expect(traffic[at + 4].params).toMatchObject({
      itemId: (traffic[at].params as WireMessage).itemId,
      status: 'completed',
      payload: { decision: 'allow' },
    });
    expect(traffic[at + 7].params).toMatchObject({
      status: 'completed',
      payload: { toolName: 'bash', status: 'success' },
    });
    expect(readFileSync(join(live.workspace, 'out.txt'), 'utf8')).toBe('hi\n');
    expect(labels.filter((l) => l === 'approval/resolved')).toHaveLength(1);
  });

  it('denies through approval/resolve: {} then approval/resolved; the tool never runs; late answers are ignored', async () => {
    live = await LiveAppServer.start({ steps: [bash(WRITE_OUT), finish('Left it.')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from });
    const requestId = request.id as string;

    const before = client.messages.length;
    const resolved = await client.request('approval/resolve', {
      threadId,
      turnId,
      requestId,
      decision: 'deny',
      reason: 'Keep the build output',
    });
    expect(resolved.result).toEqual({});
    const announced = await client.waitForMethod('approval/resolved', () => true, { from: before });
    expect(client.messages.indexOf(resolved)).toBeLessThan(client.messages.indexOf(announced));
    expect(announced.params).toEqual({
      threadId,
      turnId,
      requestId,
      decision: 'deny',
      reason: 'Keep the build output',
    });

    client.respond(requestId, { decision: 'allow' });
    const again = await client.request('approval/resolve', {
      threadId,
      turnId,
      requestId,
      decision: 'allow',
    });
    expect(again.error).toEqual({ code: -32602, message: 'Unknown approval request' });
    await completion(client, turnId, from);

    const toolItem = client
      .traffic(from)
      .find(
        (m) =>
          m.method === 'item/completed' && m.params?.type === 'toolCall' && m.params?.status === 'failed',
      );
    expect(toolItem?.params).toMatchObject({
      payload: {
        toolCallId: 'call_bash',
        toolName: 'bash',
        status: 'error',
        directive: 'continue',
        errorCode: 'tool_approval_denied',
        executionStarted: false,
        durationMs: null,
        output: JSON.stringify({
          ok: false,
          error: 'Keep the build output',
          error_code: 'tool_approval_denied',
          tool_name: 'bash',
        }),
      },
    });
    expect(toolItem?.params?.payload).not.toHaveProperty('arguments');
    expect(client.labels(from).filter((l) => l === 'approval/resolved')).toHaveLength(1);
    const startedTools = client
      .traffic(from)
      .filter((m) => m.method === 'item/started' && m.params?.type === 'toolCall')
      .map((m) => (m.params?.payload as Record<string, unknown>).toolName);
    expect(startedTools).toEqual(['task_finish']);
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(false);
  });

  it('allow_session grants the tool on the thread: later calls (also in later turns) ask nothing, other threads still ask', async () => {
    live = await LiveAppServer.start({
      steps: [
        bash('echo one > one.txt', 'call_1'),
        bash('echo two > two.txt', 'call_2'),
        finish('Both done.'),
        bash('echo three > three.txt', 'call_3'),
        finish('Third done.'),
        bash('echo four > four.txt', 'call_4'),
        finish('Fourth done.'),
      ],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const first = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from: first.from });
    client.respond(request.id as string, { decision: 'allow_session' });
    await completion(client, first.turnId, first.from);
    expect(client.labels(first.from).filter((l) => l === 'approval/request')).toHaveLength(1);
    const resolved = client.traffic(first.from).find((m) => m.method === 'approval/resolved');
    expect(resolved?.params).toMatchObject({ decision: 'allow_session' });
    expect(resolved?.params).not.toHaveProperty('reason');

    const second = await startTurn(client, threadId);
    await completion(client, second.turnId, second.from);
    expect(
      client.labels(second.from).some((l) => l.startsWith('approval/') || l.endsWith('(approval)')),
    ).toBe(false);
    for (const file of ['one.txt', 'two.txt', 'three.txt'])
      expect(existsSync(join(live.workspace, file))).toBe(true);

    const otherThread = await live.startThread(client);
    const third = await startTurn(client, otherThread);
    const asked = await client.waitForMethod('approval/request', () => true, { from: third.from });
    client.respond(asked.id as string, { decision: 'allow' });
    await completion(client, third.turnId, third.from);
  });

  it('turns an error answer into timeout with its message, and an invalid answer into deny', async () => {
    live = await LiveAppServer.start({
      steps: [bash(WRITE_OUT, 'call_a'), bash(WRITE_OUT, 'call_b'), finish('Gave up.')],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const first = await client.waitForMethod('approval/request', () => true, { from });
    client.respondError(first.id as string, { code: -32000, message: 'dialog closed' });
    const second = await client.waitForMethod('approval/request', (p) => p.toolCallId === 'call_b', { from });
    client.respond(second.id as string, { decision: 'ALLOW', reason: 'ignored' });
    await completion(client, turnId, from);

    const resolutions = client.traffic(from).filter((m) => m.method === 'approval/resolved');
    expect(resolutions.map((m) => m.params)).toEqual([
      { threadId, turnId, requestId: first.id, decision: 'timeout', reason: 'dialog closed' },
      { threadId, turnId, requestId: second.id, decision: 'deny', reason: 'invalid approval response' },
    ]);
    const failed = client
      .traffic(from)
      .filter((m) => m.method === 'item/completed' && m.params?.type === 'toolCall')
      .map((m) => (m.params?.payload as Record<string, unknown>).errorCode);
    expect(failed).toEqual(['tool_approval_timeout', 'tool_approval_denied', null]);
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(false);
  });

  it('times out with the server timer; a late answer and approval/resolve change nothing', async () => {
    live = await LiveAppServer.start({
      approvalTimeoutMs: 150,
      steps: [bash(WRITE_OUT), finish('Timed out.')],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from });
    const resolved = await client.waitForMethod('approval/resolved', () => true, { from });
    expect(resolved.params).toEqual({
      threadId,
      turnId,
      requestId: request.id,
      decision: 'timeout',
      reason: 'approval request timed out',
    });
    client.respond(request.id as string, { decision: 'allow' });
    const late = await client.request('approval/resolve', {
      threadId,
      turnId,
      requestId: request.id,
      decision: 'allow',
    });
    expect(late.error).toEqual({ code: -32602, message: 'Unknown approval request' });
    const completed = await completion(client, turnId, from);
    expect(completed.params).toMatchObject({ status: 'completed' });
    expect(client.labels(from).filter((l) => l === 'approval/resolved')).toHaveLength(1);
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(false);
  });

  it('interrupt while pending: response, then approval/resolved "turn interrupted"; the turn ends interrupted', async () => {
    live = await LiveAppServer.start({ steps: [bash(WRITE_OUT)] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from });
    const requestId = request.id as string;

    const interrupted = await client.request('turn/interrupt', { threadId });
    expect(interrupted.result).toEqual({ threadId, turnId, cancelled: true });
    client.respond(requestId, { decision: 'allow' });
    const completed = await completion(client, turnId, from);
    expect(completed.params).toMatchObject({
      status: 'interrupted',
      error: 'turn interrupted',
      completionReason: 'cancelled',
    });

    const afterResponse = client.messages
      .slice(client.messages.indexOf(interrupted) + 1)
      .filter((m) => m.method);
    expect(afterResponse.map((m) => m.method)[0]).toBe('approval/resolved');
    expect(afterResponse[0].params).toEqual({
      threadId,
      turnId,
      requestId,
      decision: 'timeout',
      reason: 'turn interrupted',
    });
    const labels = client.labels(from);
    expect(labels.slice(labels.indexOf('approval/resolved'))).toEqual([
      'approval/resolved',
      'item/completed(approval)',
      'item/completed(toolCall)',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    const approvalItem = client
      .traffic(from)
      .find((m) => m.method === 'item/completed' && m.params?.type === 'approval');
    expect(approvalItem?.params?.payload).toMatchObject({ decision: 'timeout', reason: 'turn interrupted' });
    expect(client.traffic(from).at(-3)?.params).toMatchObject({
      status: 'failed',
      payload: { errorCode: 'tool_execution_cancelled' },
    });
    const resolveAfter = await client.request('approval/resolve', {
      threadId,
      turnId,
      requestId,
      decision: 'allow',
    });
    expect(resolveAfter.error).toEqual({ code: -32602, message: 'Unknown approval request' });
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(false);
  });

  it('sends approval/request to the owner only; an observer cannot resolve it; owner disconnect leaves it pending for the next resumer (docs/spec/websocket.md §6)', async () => {
    live = await LiveAppServer.start({ steps: [bash(WRITE_OUT), finish('Carried on.')] });
    const owner = await live.connect();
    const observer = await live.connect();
    const threadId = await live.startThread(owner);
    await observer.call('thread/resume', { threadId });
    const { turnId, from } = await startTurn(owner, threadId);
    const request = await owner.waitForMethod('approval/request', () => true, { from });
    const requestId = request.id as string;
    await observer.waitForMethod('approval/requested', (p) => p.requestId === requestId);

    const foreign = await observer.request('approval/resolve', {
      threadId,
      turnId,
      requestId,
      decision: 'allow',
    });
    expect(foreign.error).toEqual({ code: -32602, message: 'Unknown approval request' });
    observer.respond(requestId, { decision: 'allow' });
    const wrongTurn = await owner.request('approval/resolve', {
      threadId,
      turnId: 'turn_other',
      requestId,
      decision: 'allow',
    });
    expect(wrongTurn.error).toEqual({ code: -32602, message: 'Unknown approval request' });

    owner.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(observer.labels()).not.toContain('approval/resolved');
    // The observer resumes: it now owns the turn and is asked the same request, right after the response.
    const mark = observer.messages.length;
    await observer.call('thread/resume', { threadId });
    const reasked = await observer.waitForMethod('approval/request', () => true, { from: mark });
    expect(reasked).toEqual(request);
    observer.respond(requestId, { decision: 'deny', reason: 'not on my watch' });
    const resolved = await observer.waitForMethod('approval/resolved', (p) => p.requestId === requestId);
    expect(resolved.params).toEqual({
      threadId,
      turnId,
      requestId,
      decision: 'deny',
      reason: 'not on my watch',
    });
    const completed = await observer.waitForMethod('turn/completed', (p) => p.turnId === turnId);
    expect(completed.params).toMatchObject({ status: 'completed', finalOutput: 'Carried on.' });
    expect(observer.labels().filter((l) => l === 'approval/request')).toHaveLength(1);
    expect(observer.labels().filter((l) => l === 'approval/resolved')).toHaveLength(1);
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(false);
  });

  it('a follow-up turn is owned by the previous owner, even when another connection queued it', async () => {
    const gated = gatedStep(finish('First.'));
    live = await LiveAppServer.start({ steps: [gated.step, bash(WRITE_OUT), finish('Second.')] });
    const owner = await live.connect();
    const other = await live.connect();
    const threadId = await live.startThread(owner);
    await other.call('thread/resume', { threadId });
    const { from } = await startTurn(owner, threadId);
    await gated.gate.reached;
    await other.call('turn/followUp', { threadId, input: text('now run it') });
    gated.gate.open();
    const request = await owner.waitForMethod('approval/request', () => true, { from });
    owner.respond(request.id as string, { decision: 'allow' });
    await owner.waitFor((m) => m.method === 'turn/completed' && m.params?.finalOutput === 'Second.', {
      from,
    });
    expect(other.labels()).toContain('approval/requested');
    expect(other.labels()).not.toContain('approval/request');
  });

  it('holds the server request while the owner is gone; the connection that resumes receives it (docs/spec/websocket.md §6.4)', async () => {
    const gated = gatedStep(bash(WRITE_OUT));
    live = await LiveAppServer.start({ steps: [gated.step, finish('Without approval.')] });
    const owner = await live.connect();
    const observer = await live.connect();
    const threadId = await live.startThread(owner);
    await observer.call('thread/resume', { threadId });
    const { turnId } = await startTurn(owner, threadId);
    await gated.gate.reached;
    owner.disconnect();
    gated.gate.open();
    const requested = await observer.waitForMethod('approval/requested', (p) => p.turnId === turnId);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(observer.labels()).not.toContain('approval/request');
    expect(observer.labels()).not.toContain('approval/resolved');
    const successor = await live.connect();
    await successor.call('thread/resume', { threadId });
    const request = await successor.waitForMethod('approval/request', () => true);
    expect(request.params).toEqual(requested.params);
    successor.respond(request.id as string, { decision: 'deny' });
    const completed = await successor.waitForMethod('turn/completed', (p) => p.turnId === turnId);
    expect(completed.params).toMatchObject({ status: 'completed' });
    const resolved = successor.traffic().find((m) => m.method === 'approval/resolved');
    expect(resolved?.params).toMatchObject({ decision: 'deny' });
    expect(observer.labels()).not.toContain('approval/request');
  });

  it('ignores answers that match nothing: unknown ids, duplicates, other connections', async () => {
    live = await LiveAppServer.start({ steps: [bash(WRITE_OUT), finish('Done.')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from });
    const countBefore = client.messages.length;
    client.respond('approval_00000000000000000000000000000000', { decision: 'deny' });
    client.sendRaw({ jsonrpc: '2.0', id: 99, result: { decision: 'deny' } });
    client.sendRaw({ jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } });
    client.respond(request.id as string, { decision: 'allow', reason: 'fine', metadata: { by: 'ana' } });
    client.respond(request.id as string, { decision: 'deny' });
    await completion(client, turnId, from);
    const resolutions = client.traffic(countBefore).filter((m) => m.method === 'approval/resolved');
    expect(resolutions.map((m) => m.params)).toEqual([
      { threadId, turnId, requestId: request.id, decision: 'allow', reason: 'fine', metadata: { by: 'ana' } },
    ]);
    const approvalItem = client
      .traffic(from)
      .find((m) => m.method === 'item/completed' && m.params?.type === 'approval');
    expect(approvalItem?.params?.payload).toMatchObject({
      decision: 'allow',
      reason: 'fine',
      metadata: { by: 'ana' },
    });
    expect(client.messages.slice(countBefore).filter((m) => m.error !== undefined)).toEqual([]);
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(true);
  });

  it('untrusted policy asks for write_file; never policy asks for nothing', async () => {
    const writeStep: ScriptObjectStep = {
      tool_calls: [{ id: 'call_w', name: 'write_file', arguments: { path: 'w.txt', content: 'data' } }],
    };
    live = await LiveAppServer.start({ approvalPolicy: 'untrusted', steps: [writeStep, finish('Written.')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    const request = await client.waitForMethod('approval/request', () => true, { from });
    expect(request.params).toMatchObject({
      toolName: 'write_file',
      preview: 'write_file {"path":"w.txt","content":"data"}',
      arguments: { path: 'w.txt', content: 'data' },
    });
    client.respond(request.id as string, { decision: 'allow' });
    await completion(client, turnId, from);
    expect(readFileSync(join(live.workspace, 'w.txt'), 'utf8')).toBe('data');
    await live.close();

    live = await LiveAppServer.start({ approvalPolicy: 'never', steps: [bash(WRITE_OUT), finish('Ran.')] });
    const next = await live.connect();
    const nextThread = await live.startThread(next);
    const run = await startTurn(next, nextThread);
    await completion(next, run.turnId, run.from);
    expect(next.labels(run.from).some((l) => l.includes('approval'))).toBe(false);
    expect(readFileSync(join(live.workspace, 'out.txt'), 'utf8')).toBe('hi\n');
  });

  it('announces a resolution the runtime made itself (host provider) from its event, once', async () => {
    live = await LiveAppServer.start({
      runConfig: {
        approvalProvider: {
          shouldRequest: () => true,
          decide: async () => ({ action: 'deny', reason: 'policy says no' }),
        },
      },
      steps: [bash(WRITE_OUT), finish('Denied by policy.')],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const { turnId, from } = await startTurn(client, threadId);
    await completion(client, turnId, from);
    const labels = client.labels(from);
    const at = labels.indexOf('approval/requested');
    expect(labels.slice(at, at + 4)).toEqual([
      'approval/requested',
      'approval/request',
      'approval/resolved',
      'item/completed(approval)',
    ]);
    const request = client.traffic(from)[at + 1];
    expect(client.traffic(from)[at + 2].params).toEqual({
      threadId,
      turnId,
      requestId: request.id,
      decision: 'deny',
      reason: 'policy says no',
    });
    // The server request was withdrawn: a late answer and approval/resolve match nothing.
    client.respond(request.id as string, { decision: 'allow' });
    const late = await client.request('approval/resolve', {
      threadId,
      turnId,
      requestId: request.id,
      decision: 'allow',
    });
    expect(late.error).toEqual({ code: -32602, message: 'Unknown approval request' });
    expect(labels.filter((l) => l === 'approval/resolved')).toHaveLength(1);
    expect(existsSync(join(live.workspace, 'out.txt'))).toBe(false);
  });
});
