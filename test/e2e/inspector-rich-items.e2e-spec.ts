/**
 * The inspector renders what this server does not send yet (docs/spec/items.md: reasoning, live
 * command output, commandResult, fileChanges, plan, turn diff; docs/spec/sandbox.md §4: sandbox)
 * and shows an unknown item type or payload member generically, never dropping it or failing.
 * A scripted JSON-RPC peer on one port stands in for a v1.2 server: it serves the built page with
 * the real inspector handler (so CSP and origin are as in production) and answers over WebSocket.
 *
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { createInspectorHttp } from '../../src/transports/websocket/inspector';
import { InspectorBrowser } from '../helpers/inspector-browser';

jest.setTimeout(120_000);

const DIST_PAGE = resolve(__dirname, '../../dist/inspector');
const T = 'thread_0123456789abcdef0123456789abcdef';
const U = 'turn_0123456789abcdef0123456789abcdef';
const item = (id: string, type: string, status: string, payload: object, at = 1): object => ({
  itemId: `item_${id.padStart(32, '0')}`,
  threadId: T,
  turnId: U,
  type,
  status,
  payload,
  createdAt: at,
  updatedAt: at,
});

const SNAPSHOT = {
  thread: { threadId: T, agentKey: 'default', cwd: '/work', status: 'running', metadata: { title: 'Rich' } },
  turns: [
    {
      turnId: U,
      threadId: T,
      runId: null,
      status: 'running',
      startedAt: 1,
      completedAt: null,
      input: [],
      result: {},
    },
  ],
  items: [
    item('1', 'userMessage', 'completed', { text: 'Show everything' }),
    item('2', 'reasoning', 'completed', { text: 'I should list the files first.' }, 2),
    item(
      '3',
      'toolCall',
      'completed',
      {
        toolCallId: 'c1',
        toolName: 'edit_file',
        arguments: { path: 'a.txt', old_string: 'old line', new_string: 'new line' },
        status: 'success',
        errorCode: null,
        executionStarted: true,
        durationMs: 12,
        fileChanges: [
          {
            path: 'a.txt',
            kind: 'update',
            diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old line\n+new line\n',
            additions: 1,
            deletions: 1,
            diffTruncated: false,
          },
        ],
        futureField: { shape: 'unknown' },
      },
      3,
    ),
    item(
      '4',
      'toolCall',
      'completed',
      {
        toolCallId: 'c2',
        toolName: 'bash',
        arguments: { command: 'make test' },
        status: 'success',
        errorCode: null,
        executionStarted: true,
        durationMs: 40,
        output: 'ok',
        outputTruncated: false,
        commandResult: { exitCode: 0, signal: null, timedOut: false, stdoutBytes: 2, stderrBytes: 0 },
        sandbox: { mode: 'workspace-write', network: false },
      },
      4,
    ),
    item('5', 'futureThing', 'completed', { a: 1, note: '<b>not bold</b>' }, 5),
  ],
};

/** What the peer sends after the resume response: live v1.2 notifications. */
function liveNotifications(): object[] {
  const running = item(
    '6',
    'toolCall',
    'inProgress',
    { toolCallId: 'c3', toolName: 'bash', arguments: { command: 'tail -f log' } },
    6,
  );
  const thinking = item('7', 'reasoning', 'inProgress', { text: '' }, 7);
  return [
    { method: 'item/started', params: running },
    {
      method: 'item/toolCall/delta',
      params: { ...running, deltaKind: 'arguments', delta: { command: 'tail -f log' } },
    },
    {
      method: 'item/toolCall/delta',
      params: {
        ...running,
        deltaKind: 'output',
        delta: { kind: 'output', stream: 'stdout', text: 'line 1\n' },
      },
    },
    {
      method: 'item/toolCall/delta',
      params: {
        ...running,
        deltaKind: 'output',
        delta: { kind: 'output', stream: 'stderr', text: 'line 2\n' },
      },
    },
    { method: 'item/started', params: thinking },
    { method: 'item/reasoning/delta', params: { ...thinking, payload: { text: 'Think' }, delta: 'Think' } },
    {
      method: 'item/reasoning/delta',
      params: { ...thinking, payload: { text: 'ing on.' }, delta: 'ing on.' },
    },
    {
      method: 'turn/plan/updated',
      params: {
        threadId: T,
        turnId: U,
        todos: [{ id: '1', title: 'Run the tests', status: 'in_progress', priority: 'high' }],
      },
    },
    {
      method: 'turn/diff/updated',
      params: {
        threadId: T,
        turnId: U,
        files: [{ path: 'a.txt', kind: 'update', additions: 1, deletions: 1 }],
      },
    },
    { method: 'some/futureNotification', params: { threadId: T, anything: true } },
  ].map((message) => ({ jsonrpc: '2.0', ...message }));
}

function answer(socket: WebSocket, message: { id?: number; method?: string }): void {
  const reply = (result: object): void =>
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  switch (message.method) {
    case 'initialize':
      return reply({
        userAgent: 'fake',
        protocolVersion: 'v1',
        capabilities: {
          threadLifecycle: true,
          richItems: true,
          sandbox: { available: true, maxMode: 'workspace-write' },
        },
      });
    case 'thread/list':
      return reply({ threads: [SNAPSHOT.thread], nextCursor: null });
    case 'thread/resume':
      reply(SNAPSHOT);
      for (const notification of liveNotifications()) socket.send(JSON.stringify(notification));
      return;
    default:
      if (message.id !== undefined) reply({});
  }
}

let http: Server;
let browser: InspectorBrowser | null = null;
let root: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vv-inspector-rich-'));
  const inspector = createInspectorHttp(DIST_PAGE);
  http = createServer((request, response) => {
    if (!inspector.handle(request, response)) response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server: http, handleProtocols: () => 'vv-agent-app-server.v1' });
  wss.on('connection', (socket) =>
    socket.on('message', (data) =>
      answer(socket, JSON.parse(data.toString()) as { id?: number; method?: string }),
    ),
  );
  await new Promise<void>((resolveListen) => http.listen(0, '127.0.0.1', resolveListen));
});

afterEach(async () => {
  await browser?.close();
  browser = null;
  http.closeAllConnections();
  await new Promise((resolveClose) => http.close(resolveClose));
  rmSync(root, { recursive: true, force: true });
});

it('renders v1.2 items, sandbox and live output, and shows unknown types and members as JSON', async () => {
  const port = (http.address() as AddressInfo).port;
  const page = await InspectorBrowser.launch(join(root, 'chromium'));
  browser = page;
  await page.goto(`http://127.0.0.1:${port}/inspector/`);
  await page.click('button', 'Connect');
  await page.waitFor('document.querySelector(".connection")?.textContent === "connected"');
  expect(
    await page.evaluate('document.querySelector("[aria-label=\'Server capabilities\']").textContent'),
  ).toContain('sandbox: {"available":true,"maxMode":"workspace-write"}');
  await page.click('button', 'Rich running');
  const conversation = '[aria-label=Conversation]';
  await page.waitFor(`document.querySelectorAll("${conversation} [data-item-id]").length === 7`);

  const text = (selector: string): Promise<string> =>
    page.evaluate<string>(
      `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.textContent).join("|")`,
    );
  // The unknown item type: its whole item as JSON, its HTML as text.
  expect(await text('[data-item-type=futureThing] pre.json')).toContain('"note": "<b>not bold</b>"');
  expect(await page.evaluate(`document.querySelectorAll("${conversation} b").length`)).toBe(0);
  // fileChanges' own diff wins over the arguments; the unknown member is under "Other fields".
  expect(await text('[data-item-id$="3"] .diff-del')).toBe('-old line\n');
  expect(await text('[data-item-id$="3"] .diff-add')).toBe('+new line\n');
  expect(await text('[data-item-id$="3"] .other-fields pre')).toContain('"futureField"');
  // commandResult and sandbox of a finished bash call.
  expect(await text('[data-item-id$="4"] .facts')).toContain('exit code 0 · 40 ms');
  expect(await text('[data-item-id$="4"] [aria-label=Sandbox]')).toBe(
    'sandbox: workspace-write, network off',
  );
  // Reasoning, collapsed; live output and streamed reasoning text; plan and turn diff.
  expect(await text('[data-item-id$="2"] details.reasoning summary')).toContain('Show reasoning');
  await page.waitFor(
    `document.querySelector("[data-item-id$='6'] [aria-label='Live output']")?.textContent === "line 1\\nline 2\\n"`,
  );
  await page.waitFor(
    `document.querySelector("[data-item-id$='7'] .message-text")?.textContent === "Thinking on."`,
  );
  expect(await text('[aria-label=Plan] li')).toContain('Run the tests');
  expect(await text('.turn-diff summary')).toBe('Turn diff (1 files)');
  expect(page.problems).toEqual([]);
});
