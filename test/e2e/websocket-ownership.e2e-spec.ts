/**
 * Turn ownership that moves on reconnect (docs/spec/websocket.md §6): the owner's connection closes while
 * an approval is pending → the turn keeps running → a new connection resumes the thread, receives
 * the same `approval/request`, answers it, and the tool runs; the approval timeout still applies
 * while nobody owns the turn; observers never get the server request; `approval/resolve` only
 * from the current owner. The built CLI on 127.0.0.1 port 0, real `ws` clients. Build first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2eSandbox, ID_PATTERN, paramsOf, sleep, type JsonMessage } from '../helpers/app-server-session';
import { bashReply, finishReply } from '../helpers/model-replies';
import { WsPeer, WsServerProcess } from '../helpers/websocket-server';

jest.setTimeout(60_000);

let sandbox: E2eSandbox;
let server: WsServerProcess | null = null;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-ws-ownership-e2e-');
});

afterEach(async () => {
  await server?.kill();
  server = null;
  await sandbox.dispose();
});

const textInput = (text: string) => [{ type: 'text', text }];
const isApprovalRequest = (m: JsonMessage): boolean => m.method === 'approval/request' && 'id' in m;
const isTurnCompleted = (m: JsonMessage): boolean => m.method === 'turn/completed';

async function peer(): Promise<WsPeer> {
  const connected = await WsPeer.connect(server!.url);
  await connected.initialize();
  return connected;
}

/** The owner starts a thread in the workspace and a turn whose bash call needs approval. */
async function ownerWithPendingApproval(): Promise<{
  owner: WsPeer;
  threadId: string;
  turnId: string;
  request: JsonMessage;
}> {
  const owner = await peer();
  const { threadId } = await owner.startThread({ cwd: sandbox.workspace });
  const { turnId } = await owner.call<{ turnId: string }>('turn/start', {
    threadId,
    input: textInput('run it'),
  });
  const request = await owner.waitFor(isApprovalRequest);
  return { owner, threadId, turnId, request };
}

describe('owner disconnect during a pending approval (docs/spec/websocket.md §6)', () => {
  it('the turn keeps running; the resuming connection gets the same approval/request and answers it', async () => {
    server = await WsServerProcess.start(sandbox);
    sandbox.model.enqueue(
      bashReply('echo moved > moved.txt', { callId: 'call_moved' }),
      finishReply('done', { content: ['done'] }),
    );
    const observer = await peer();
    const { owner, threadId, turnId, request } = await ownerWithPendingApproval();
    await observer.call('thread/resume', { threadId });
    expect(String(request.id)).toMatch(ID_PATTERN.approval);

    await owner.terminate();
    await sleep(300);
    // Still pending, still running: nothing was resolved by the disconnect.
    const during = await observer.call<{ turns: Array<Record<string, unknown>> }>('thread/read', {
      threadId,
    });
    expect(during.turns[0]).toMatchObject({ turnId, status: 'running' });
    expect(observer.received.filter((m) => m.method === 'approval/resolved')).toEqual([]);
    expect(existsSync(join(sandbox.workspace, 'moved.txt'))).toBe(false);
    // approval/resolve is for the owner only; the turn has none right now.
    const refused = await observer.request('approval/resolve', {
      threadId,
      turnId,
      requestId: request.id,
      decision: 'allow',
    });
    expect(refused).toMatchObject({ error: { code: expect.any(Number) } });

    const successor = await peer();
    const resumed = await successor.request('thread/resume', { threadId });
    const afterResponse = await successor.next();
    // Right after the response: the same server request, same id and params.
    expect(successor.received.indexOf(resumed) + 1).toBe(successor.received.indexOf(afterResponse));
    expect(afterResponse).toEqual(request);
    successor.send({ jsonrpc: '2.0', id: request.id, result: { decision: 'allow' } });

    const rest = await successor.collectUntil(isTurnCompleted);
    expect(rest.filter((m) => m.method === 'approval/resolved').map(paramsOf)).toEqual([
      { threadId, turnId, requestId: request.id, decision: 'allow' },
    ]);
    expect(paramsOf(rest.at(-1)!)).toMatchObject({ turnId, status: 'completed' });
    expect(readFileSync(join(sandbox.workspace, 'moved.txt'), 'utf8')).toBe('moved\n');
    // The observer saw the broadcast once and never the server request.
    await observer.waitFor(isTurnCompleted);
    expect(observer.received.filter((m) => m.method === 'approval/resolved')).toHaveLength(1);
    expect(observer.received.filter(isApprovalRequest)).toEqual([]);
    await observer.close();
    await successor.close();
  });

  it('the approval timeout still resolves it when nobody reclaims the turn', async () => {
    server = await WsServerProcess.start(sandbox, { args: ['--approval-timeout-seconds', '1'] });
    sandbox.model.enqueue(bashReply('echo never > never.txt', { callId: 'call_never' }), finishReply('ok'));
    const observer = await peer();
    const { owner, threadId, turnId, request } = await ownerWithPendingApproval();
    await observer.call('thread/resume', { threadId });
    await owner.close();

    const resolved = await observer.waitFor((m) => m.method === 'approval/resolved', 10_000);
    expect(paramsOf(resolved)).toEqual({
      threadId,
      turnId,
      requestId: request.id,
      decision: 'timeout',
      reason: 'approval request timed out',
    });
    const completed = await observer.waitFor(isTurnCompleted);
    expect(paramsOf(completed)).toMatchObject({ turnId, status: 'completed' });
    expect(existsSync(join(sandbox.workspace, 'never.txt'))).toBe(false);
    expect(observer.received.filter(isApprovalRequest)).toEqual([]);
    await observer.close();
  });

  it('an approval requested while the turn has no owner is held until a connection resumes', async () => {
    server = await WsServerProcess.start(sandbox);
    const {
      owner,
      threadId,
      turnId,
      request: first,
    } = await (async () => {
      sandbox.model.enqueue(
        bashReply('echo one > one.txt', { callId: 'call_one' }),
        bashReply('echo two > two.txt', { callId: 'call_two' }),
        finishReply('ok'),
      );
      return ownerWithPendingApproval();
    })();
    const observer = await peer();
    await observer.call('thread/resume', { threadId });
    // The owner answers the first request, then leaves before the second one exists.
    owner.send({ jsonrpc: '2.0', id: first.id, result: { decision: 'allow' } });
    await observer.waitFor((m) => m.method === 'approval/resolved');
    await owner.terminate();

    // The second approval is announced to subscribers, but its server request waits for an owner.
    const requested = await observer.waitFor((m) => m.method === 'approval/requested');
    expect(paramsOf(requested)).toMatchObject({ turnId, toolCallId: 'call_two' });
    await sleep(300);
    expect(observer.received.filter(isApprovalRequest)).toEqual([]);

    const successor = await peer();
    await successor.call('thread/resume', { threadId });
    const request = await successor.waitFor(isApprovalRequest);
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: paramsOf(requested).requestId,
      method: 'approval/request',
      params: paramsOf(requested),
    });
    // approval/resolve works for the new owner.
    expect(
      await successor.call('approval/resolve', { threadId, turnId, requestId: request.id, decision: 'deny' }),
    ).toEqual({});
    const rest = await successor.collectUntil(isTurnCompleted);
    expect(paramsOf(rest.at(-1)!)).toMatchObject({ status: 'completed' });
    expect(readFileSync(join(sandbox.workspace, 'one.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(sandbox.workspace, 'two.txt'))).toBe(false);
    await observer.close();
    await successor.close();
  });
});
