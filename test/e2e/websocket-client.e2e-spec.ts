/**
 * `AppServerClient.connect(url, { token })` (docs/spec/websocket.md §7) against the built CLI listening on
 * `ws://127.0.0.1:0` with a token file: typed calls, the backlog, the approval handler, a refused
 * connection, connection loss on shutdown. Node 20 has no global WebSocket, so this runs the `ws`
 * fallback. Build first (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppServerClient, AppServerClientError, type ServerMessage } from '../../src/client';
import { E2eSandbox } from '../helpers/app-server-session';
import { bashReply, finishReply } from '../helpers/model-replies';
import { TEST_TOKEN, WsServerProcess } from '../helpers/websocket-server';

jest.setTimeout(30_000);

let sandbox: E2eSandbox;
let server: WsServerProcess | null = null;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-ws-client-e2e-');
  server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN });
});

afterEach(async () => {
  await server?.kill();
  server = null;
  await sandbox.dispose();
});

const isTurnCompleted = (m: ServerMessage): boolean => 'method' in m && m.method === 'turn/completed';

describe('AppServerClient.connect over WebSocket (docs/spec/websocket.md §7)', () => {
  it('runs a turn with an approval handler; the backlog keeps every notification in order', async () => {
    sandbox.model.enqueue(
      bashReply('echo via-ws > ws.txt', { callId: 'call_ws' }),
      finishReply('done', { content: ['done'] }),
    );
    const client = await AppServerClient.connect(server!.url, { token: TEST_TOKEN });
    const init = await client.initialize({ name: 'ws-client', version: '1.0.0' });
    expect(init.protocolVersion).toBe('v1');
    const asked: string[] = [];
    client.onApprovalRequest((params) => {
      asked.push(params.toolName);
      return { decision: 'allow' };
    });
    const { threadId } = await client.startThread({ cwd: sandbox.workspace });
    const { turnId } = await client.startTurn({ threadId, input: [{ type: 'text', text: 'go' }] });
    const completed = await client.waitFor(isTurnCompleted, { timeoutMs: 15_000 });
    expect(completed).toMatchObject({ params: { threadId, turnId, status: 'completed' } });
    expect(asked).toEqual(['bash']);
    expect(readFileSync(join(sandbox.workspace, 'ws.txt'), 'utf8')).toBe('via-ws\n');
    const read = await client.readThread({ threadId });
    expect(read.turns.map((turn) => turn.status)).toEqual(['completed']);
    expect(await client.close()).toBe(true);
    expect(await client.close()).toBe(false);
    await expect(client.listModels()).rejects.toThrow('App Server client is closed');
  });

  it('a wrong or missing token is refused before any message, and never echoed', async () => {
    for (const token of ['wrong-token-0123456789', undefined]) {
      const error = await AppServerClient.connect(server!.url, token === undefined ? {} : { token }).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppServerClientError);
      expect((error as Error).message).toBe(
        `failed to connect to App Server at ${server!.url}: Unexpected server response: 401`,
      );
    }
    expect(server!.stderr).not.toContain('wrong-token');
  });

  it('server shutdown: pending calls reject with "App Server connection closed", nextMessage drains then null', async () => {
    const client = await AppServerClient.connect(server!.url, { token: TEST_TOKEN });
    await client.initialize({ name: 'ws-client', version: '1.0.0' });
    const { threadId } = await client.startThread();
    expect(await client.nextMessage()).toMatchObject({ method: 'thread/started', params: { threadId } });
    expect(await server!.stop()).toEqual({ code: 0, signal: null });
    expect(await client.nextMessage({ timeoutMs: 2_000 })).toBeNull();
    await expect(client.listModels()).rejects.toThrow(AppServerClientError);
  });
});
