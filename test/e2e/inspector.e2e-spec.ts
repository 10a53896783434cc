/**
 * The inspector (docs/spec/inspector.md §4) against the built CLI: plain HTTP for the headers and
 * paths of §3, then a real headless Chromium driven only by clicks and typing on elements found
 * by their accessible names (§2) for a whole session — connect, new thread, a streamed answer, an
 * approval allowed with its output, one denied, a file diff, agent HTML shown as text, a reload
 * mid-turn that loses and doubles nothing, an interrupt — with no console error, no CSP violation,
 * no request to another host and the token never in a URL or localStorage. The thread view's
 * screenshot is written to test-output/inspector/ (git-ignored).
 *
 * Needs `npm run build` and /usr/bin/chromium (override with CHROMIUM_BIN).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { E2eSandbox, eventually } from '../helpers/app-server-session';
import { DIST_MAIN } from '../helpers/jsonl-child';
import { chunks, type FakeReply } from '../helpers/fake-openai-server';
import { InspectorBrowser } from '../helpers/inspector-browser';
import {
  assistantReply,
  bashReply,
  finishReply,
  gate,
  hangingTextReply,
  providerUsage,
} from '../helpers/model-replies';
import { TEST_TOKEN, WsPeer, WsServerProcess } from '../helpers/websocket-server';
import { INSPECTOR_CSP } from '../../src/transports/websocket/inspector/inspector-headers';
import { INSPECTOR_GZIP_BUDGET_BYTES, inspectorGzipSize } from '../../scripts/inspector-size';

jest.setTimeout(180_000);

const REPOSITORY = resolve(__dirname, '../..');
export const OUTPUT_DIR = join(REPOSITORY, 'test-output', 'inspector');
/** Each of turn 1's four model calls: the turn totals 120 in, 20 out, 20 cached. */
const USAGE = providerUsage(30, 5, 5);
const XSS = 'Look: <img src=x onerror=alert(1)> and <script>window.__xss = 1</script> done';

let sandbox: E2eSandbox;
let server: WsServerProcess | null = null;
let browser: InspectorBrowser | null = null;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-inspector-');
});

afterEach(async () => {
  await browser?.close();
  browser = null;
  await server?.stop();
  server = null;
  await sandbox.dispose();
});

describe('HTTP surface (docs/spec/inspector.md §3)', () => {
  it('serves the page with the CSP, nosniff, no-referrer and exact content types; traversal and listing are 404', async () => {
    server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN, args: ['--inspector'] });
    const base = `${server.httpBase}/inspector/`;
    const expectSecurityHeaders = (response: Response): void => {
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    };
    expect(INSPECTOR_CSP).toContain("frame-ancestors 'none'");
    for (const [path, type] of [
      ['', 'text/html; charset=utf-8'],
      ['index.html', 'text/html; charset=utf-8'],
      ['inspector.js', 'text/javascript; charset=utf-8'],
      ['inspector.css', 'text/css; charset=utf-8'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const response = await fetch(base + path);
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type,
      });
      expectSecurityHeaders(response);
    }
    // Traversal, encoded traversal, sub-paths (no listing) and unknown files: 404 with the headers.
    for (const path of [
      '../package.json',
      '..%2fpackage.json',
      '%2e%2e/package.json',
      '%2E%2E%2Fpackage.json',
      '.%2e/package.json',
      'x/../index.html',
      'assets/',
      '.hidden',
      'missing.js',
      'index.html%00',
    ]) {
      const response = await rawGet(server.port, `/inspector/${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe(INSPECTOR_CSP);
    }
    const bare = await fetch(`${server.httpBase}/inspector`, { redirect: 'manual' });
    expect({ status: bare.status, location: bare.headers.get('location') }).toEqual({
      status: 308,
      location: '/inspector/',
    });
    expect((await fetch(`${server.httpBase}/healthz`)).status).toBe(200);
  });

  it('admits the page origin for the WebSocket (with the token), refuses other origins and rebound names', async () => {
    server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN, args: ['--inspector'] });
    const port = server.port;
    const upgrade = (origin: string, host: string, token = TEST_TOKEN): Promise<number> =>
      new Promise((resolveStatus) => {
        const socket = new WebSocket(
          `ws://127.0.0.1:${port}/`,
          ['vv-agent-app-server.v1', `vv-agent-token.${token}`],
          {
            headers: { origin, host },
          },
        );
        socket.on('open', () => {
          socket.close();
          resolveStatus(101);
        });
        socket.on('unexpected-response', (_request, response) => resolveStatus(response.statusCode ?? 0));
        socket.on('error', () => resolveStatus(0));
      });
    expect(await upgrade(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`)).toBe(101);
    expect(await upgrade(`http://localhost:${port}`, `localhost:${port}`)).toBe(101);
    expect(await upgrade(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`, 'wrong-token-0123456789')).toBe(
      401,
    );
    expect(await upgrade('http://evil.example', `127.0.0.1:${port}`)).toBe(403);
    // DNS rebinding: an attacker's name pointed at 127.0.0.1 sends a matching Host and Origin.
    expect(await upgrade(`http://evil.example:${port}`, `evil.example:${port}`)).toBe(403);
  });

  it('is 404 without --inspector, as before', async () => {
    server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN });
    for (const path of ['/inspector/', '/inspector/index.html', '/inspector']) {
      const response = await fetch(`${server.httpBase}${path}`, { redirect: 'manual' });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    const refused = await new Promise<number>((resolveStatus) => {
      const socket = new WebSocket(
        server?.url ?? '',
        ['vv-agent-app-server.v1', `vv-agent-token.${TEST_TOKEN}`],
        {
          headers: { origin: `http://127.0.0.1:${server?.port}` },
        },
      );
      socket.on('unexpected-response', (_request, response) => resolveStatus(response.statusCode ?? 0));
      socket.on('open', () => resolveStatus(101));
      socket.on('error', () => undefined);
    });
    expect(refused).toBe(403);
  });

  it('keeps the built page within 300 KB gzip', () => {
    const size = inspectorGzipSize(join(REPOSITORY, 'dist', 'inspector'));
    console.log(`inspector page: ${(size / 1024).toFixed(1)} KB gzip`);
    expect(size).toBeGreaterThan(1000);
    expect(size).toBeLessThanOrEqual(INSPECTOR_GZIP_BUDGET_BYTES);
  });
});

describe('a session in headless Chromium (docs/spec/inspector.md §4)', () => {
  it('connects, streams, approves, denies, shows a diff and agent HTML as text, survives a reload mid-turn, interrupts', async () => {
    const firstHalf = gate();
    const secondHalf = gate();
    sandbox.model.enqueue(
      streamedBash(['Let me ', 'run ', 'the tests'], firstHalf.promise, ['.'], 'echo approved-output'),
      bashReply('rm -rf build', { content: ['Cleaning up.'], callId: 'call_rm', usage: USAGE }),
      assistantReply(
        [
          {
            id: 'call_write',
            name: 'write_file',
            arguments: { path: 'notes.txt', content: 'hello\nworld\n' },
          },
        ],
        { content: ['Writing notes.'], usage: USAGE },
      ),
      finishReply(XSS, { content: [XSS], usage: USAGE }),
      streamedFinish(['part one, '], secondHalf.promise, ['part two.']),
      hangingTextReply(['Working on it']),
    );
    server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN, args: ['--inspector'] });
    const origin = `127.0.0.1:${server.port}`;
    const page = await InspectorBrowser.launch(join(sandbox.root, 'chromium'));
    browser = page;
    await page.goto(`http://${origin}/inspector/`);

    // Connect: the URL defaults to the page's host; the token is typed.
    expect(await page.evaluate('document.querySelector("input[type=url]").value')).toBe(`ws://${origin}/`);
    await page.find('textbox', 'Server URL');
    await page.fill('textbox', 'Token', TEST_TOKEN);
    await page.click('button', 'Connect');
    await page.waitFor('document.querySelector(".connection")?.textContent === "connected"');
    expect(
      await page.evaluate('document.querySelector("[aria-label=\'Server capabilities\']").textContent'),
    ).toContain('threadLifecycle');

    // A new thread appears in "Threads" and opens.
    await page.click('button', 'New thread');
    await page.find('list', 'Threads');
    await page.waitFor('document.querySelectorAll("[aria-label=Threads] > li").length === 1');
    await page.find('region', 'Conversation');

    // Send with Enter; the answer grows while it streams.
    await page.fill('textbox', 'Message', 'Please run the tests');
    await page.press('Enter');
    await page.waitFor(`${agentTexts}.includes("Let me run the tests")`);
    expect(await page.evaluate(`${itemStatuses('agentMessage')}[0]`)).toBe('inProgress');
    expect(await page.evaluate('document.querySelector(".composer .danger").disabled')).toBe(false);
    firstHalf.open();
    await page.waitFor(`${agentTexts}.includes("Let me run the tests.")`);

    // Approve the command: the dialog shows it in full; its output appears.
    await page.find('dialog', 'Approval required');
    expect(
      await page.evaluate('document.querySelector("dialog[open] [aria-label=\'Full command\']").textContent'),
    ).toBe('echo approved-output');
    await page.click('button', 'Allow');
    await page.waitFor(`${outputs}.some((text) => text.includes("approved-output"))`);

    // Deny the next one, with a reason.
    await page.find('dialog', 'Approval required');
    await page.waitFor(
      'document.querySelector("dialog[open] [aria-label=\'Full command\']")?.textContent === "rm -rf build"',
    );
    await page.fill('textbox', 'Reason', 'not on this machine');
    await page.click('button', 'Deny');
    await page.waitFor(
      `[...document.querySelectorAll("[data-item-type=approval]")].some((e) => e.textContent.includes("deny") && e.textContent.includes("not on this machine"))`,
    );

    // The write_file diff, coloured by line.
    await page.waitFor(
      `[...document.querySelectorAll(".diff-add")].map((e) => e.textContent).join("|") === "+hello\\n|+world\\n"`,
    );

    // Agent HTML is text: shown verbatim, no element, nothing ran.
    await page.waitFor(`${agentTexts}.includes(${JSON.stringify(XSS)})`);
    await page.waitFor(`document.querySelector("[data-turn-id] .badge")?.textContent === "completed"`);
    expect(
      await page.evaluate(
        '[document.querySelectorAll("[aria-label=Conversation] img").length, document.querySelectorAll("[aria-label=Conversation] script").length, typeof window.__xss]',
      ),
    ).toEqual([0, 0, 'undefined']);
    expect(page.dialogs).toEqual([]);
    expect(
      await page.evaluate('document.querySelector("[aria-label=\'Token usage\']").textContent'),
    ).toContain('input 120 · output 20 · cached 20');

    // Every item carries its id and type; the raw log has both directions.
    const ids = await page.evaluate<string[]>(itemIds);
    expect(ids.length).toBeGreaterThanOrEqual(8);
    expect(new Set(ids).size).toBe(ids.length);
    await page.find('region', 'Raw messages');
    expect(
      await page.evaluate(
        'document.querySelectorAll(".log-in").length > 0 && document.querySelectorAll(".log-out").length > 0',
      ),
    ).toBe(true);
    await page.screenshot(join(OUTPUT_DIR, 'thread-view.png'));
    await page.setWidth(360, 800);
    await page.screenshot(join(OUTPUT_DIR, 'thread-view-360.png'));
    expect(await page.evaluate('document.documentElement.scrollWidth <= 360')).toBe(true);
    await page.setWidth(1400, 1000);

    // Turn 2: reload while it streams; the catch-up loses and doubles nothing.
    await page.fill('textbox', 'Message', 'Stream slowly');
    await page.click('button', 'Send');
    await page.waitFor(`${agentTexts}.includes("part one, ")`);
    const before = await page.evaluate<string[]>(itemIds);
    await page.reload();
    await page.waitFor('document.querySelector(".connection")?.textContent === "connected"');
    await page.waitFor(`${agentTexts}.includes("part one, ")`);
    secondHalf.open();
    await page.waitFor(`${agentTexts}.includes("part one, part two.")`);
    await page.waitFor(
      `[...document.querySelectorAll("[data-turn-id]")].at(-1)?.querySelector(".badge")?.textContent === "completed"`,
    );
    const after = await page.evaluate<string[]>(itemIds);
    expect(new Set(after).size).toBe(after.length);
    expect(after.slice(0, before.length)).toEqual(before);
    expect((await page.evaluate<string[]>(agentTexts)).filter((text) => text.includes('part one'))).toEqual([
      'part one, part two.',
    ]);

    // Turn 3: interrupt a turn that would never end.
    await page.fill('textbox', 'Message', 'Work forever');
    await page.press('Enter');
    await page.waitFor(`${agentTexts}.includes("Working on it")`);
    await page.click('button', 'Interrupt');
    await page.waitFor(
      `[...document.querySelectorAll("[data-turn-id]")].at(-1)?.querySelector(".badge")?.textContent === "interrupted"`,
    );

    // The token only ever left through the WebSocket handshake: no URL, no localStorage.
    expect(await page.evaluate('location.href')).toBe(`http://${origin}/inspector/`);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(page.requests.length).toBeGreaterThan(3);
    for (const url of page.requests) {
      expect(url).not.toContain(TEST_TOKEN);
      expect(url.startsWith(`http://${origin}/`) || url.startsWith(`ws://${origin}/`)).toBe(true);
    }
    expect(page.problems).toEqual([]);

    // The watcher is not blind: an inline script the CSP refuses is reported.
    await page.evaluate(
      'document.body.append(Object.assign(document.createElement("script"), { textContent: "window.__inline = 1" })), typeof window.__inline',
    );
    await eventually(async () =>
      page.problems.some((problem) => /Content Security Policy/i.test(problem)) ? true : undefined,
    );
    expect(await page.evaluate('typeof window.__inline')).toBe('undefined');
  });
});

describe('the controls of docs/spec/inspector.md §2', () => {
  it('pages and archives threads, steers, follows up, allows for the session, and works the raw log', async () => {
    const running = gate();
    sandbox.model.enqueue(
      streamedBash(['Working'], running.promise, [' on it.'], 'echo one'),
      bashReply('echo two', { content: ['Again.'], callId: 'call_two' }),
      finishReply('first done'),
      finishReply('lint done'),
    );
    server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN, args: ['--inspector'] });
    const origin = `http://127.0.0.1:${server.port}`;
    const peer = await WsPeer.connect(server.url, { token: TEST_TOKEN });
    await peer.initialize();
    await peer.startThread({ metadata: { title: 'Titled thread' } });
    for (let i = 0; i < 21; i++) await peer.startThread();
    await peer.close();

    const page = await InspectorBrowser.launch(join(sandbox.root, 'chromium'));
    browser = page;
    await page.allowClipboard(origin);
    await page.goto(`${origin}/inspector/`);
    // Keyboard: Tab walks the connection bar in reading order; Enter on Connect connects.
    await page.click('textbox', 'Server URL');
    await page.press('Tab');
    expect(await page.focusedName()).toBe('Token');
    await page.fill('textbox', 'Token', TEST_TOKEN);
    await page.press('Tab');
    expect(await page.focusedName()).toBe('Connect');
    await page.press('Enter');
    await page.waitFor('document.querySelector(".connection")?.textContent === "connected"');

    // Paging (20 a page) and titles from metadata.
    await page.waitFor(`${threadItems} === 20`);
    await page.click('button', 'More threads');
    await page.waitFor(`${threadItems} === 22`);
    expect(await page.exists('button', 'More threads')).toBe(false);
    // Archive; the Archived filter then shows it alone.
    await page.click('button', 'Archive Titled thread');
    await page.waitFor(`${threadItems} === 20`);
    await page.click('checkbox', 'Archived');
    await page.waitFor(
      `${threadItems} === 1 && document.querySelector(".thread-title").textContent === "Titled thread"`,
    );
    await page.click('checkbox', 'Archived');
    await page.waitFor(`${threadItems} === 20`);

    // A running turn: follow up and steer; the approval dialog: Escape, review, allow for session.
    await page.click('button', 'New thread');
    await page.waitFor(threadOpen);
    await page.fill('textbox', 'Message', 'Do the work');
    await page.click('button', 'Send');
    await page.waitFor(`${agentTexts}.includes("Working")`);
    await page.fill('textbox', 'Message', 'also check lint');
    await page.click('button', 'Follow up');
    await page.waitFor('document.querySelector(".composer textarea").value === ""');
    await page.fill('textbox', 'Message', 'focus on unit tests');
    await page.click('button', 'Steer');
    await page.waitFor('document.querySelector(".composer textarea").value === ""');
    running.open();
    await page.find('dialog', 'Approval required');
    await page.press('Escape');
    await page.waitFor('document.querySelector("dialog") === null');
    await page.click('button', 'Review approval');
    await page.find('dialog', 'Approval required');
    await page.click('button', 'Allow for session');
    await page.waitFor(`${outputs}.some((text) => text.includes("two"))`);
    await page.waitFor(`${agentTexts}.includes("lint done")`);
    await page.waitFor(
      '[...document.querySelectorAll("[data-turn-id] > .turn-header .badge")].map((e) => e.textContent).join() === "completed,completed"',
    );
    const users = await page.evaluate<string[]>(
      '[...document.querySelectorAll("[data-item-type=userMessage]")].map((e) => e.querySelector(".item-kind").textContent + ": " + e.querySelector(".message-text").textContent)',
    );
    expect(users).toEqual(['You: Do the work', 'You (steered): focus on unit tests', 'You: also check lint']);
    // allow_session: the second bash call ran without asking again.
    expect(await page.evaluate('document.querySelectorAll("[data-item-type=approval]").length')).toBe(1);
    expect(
      await page.evaluate('document.querySelector("[data-item-type=approval] .approval .badge").textContent'),
    ).toBe('allow_session');

    // Raw log: filter by method, pause, send a request, copy as JSONL.
    await page.fill('searchbox', 'Filter by method', 'turn/start');
    const methods = await page.evaluate<string[]>(logMethods);
    expect(methods.length).toBeGreaterThan(0);
    expect(methods.every((method) => method.includes('turn/start'))).toBe(true);
    await page.fill('searchbox', 'Filter by method', ' ');
    await page.click('checkbox', 'Pause');
    const paused = await page.evaluate<number>(`${logMethods}.length`);
    await page.click('*', 'Send a request');
    await page.fill('textbox', 'Method', 'model/list');
    await page.click('button', 'Send request');
    await page.waitFor('document.querySelector("[aria-label=Response]")?.textContent.includes("models")');
    expect(await page.evaluate(`${logMethods}.length`)).toBe(paused);
    await page.click('checkbox', 'Pause');
    await page.click('button', 'Send request');
    await page.waitFor(`${logMethods}.length === ${paused + 2}`);
    await page.click('button', 'Copy as JSONL');
    await page.waitFor(
      'document.querySelector("[aria-label=\'Raw messages\'] [role=status]").textContent.startsWith("copied")',
    );
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    const lines = copied.trimEnd().split('\n');
    expect(lines.length).toBe(await page.evaluate(`${logMethods}.length`));
    expect(lines.every((line) => (JSON.parse(line) as { jsonrpc: string }).jsonrpc === '2.0')).toBe(true);
    expect(page.problems).toEqual([]);
  });
});

describe('reconnect and the demo command', () => {
  it('reconnects after the server restarts and catches up with thread/resume afterItemId', async () => {
    sandbox.model.enqueue(finishReply('first answer'), finishReply('second answer'));
    server = await WsServerProcess.start(sandbox, { token: TEST_TOKEN, args: ['--inspector'] });
    const port = server.port;
    const page = await InspectorBrowser.launch(join(sandbox.root, 'chromium'));
    browser = page;
    await page.goto(`http://127.0.0.1:${port}/inspector/`);
    await page.fill('textbox', 'Token', TEST_TOKEN);
    await page.click('button', 'Connect');
    await page.waitFor('document.querySelector(".connection")?.textContent === "connected"');
    await page.click('button', 'New thread');
    await page.waitFor(threadOpen);
    await page.fill('textbox', 'Message', 'first');
    await page.press('Enter');
    await page.waitFor(`${agentTexts}.includes("first answer")`);
    const lastItem = await page.evaluate<string>(`${itemIds}.at(-1)`);

    await server.stop();
    await page.waitFor('document.querySelector(".connection")?.textContent === "reconnecting"');
    server = await WsServerProcess.start(sandbox, {
      token: TEST_TOKEN,
      args: ['--inspector'],
      listen: `ws://127.0.0.1:${port}`,
    });
    await page.waitFor('document.querySelector(".connection")?.textContent === "connected"', 30_000);
    const notice = await page.waitFor<string>(
      'document.querySelector(".notice")?.textContent.startsWith("Reconnected") && document.querySelector(".notice").textContent',
    );
    expect(notice).toContain(`afterItemId=${lastItem}`);

    await page.fill('textbox', 'Message', 'second');
    await page.press('Enter');
    await page.waitFor(`${agentTexts}.includes("second answer")`);
    expect(await page.evaluate(agentTexts)).toEqual(['first answer', 'second answer']);
    const ids = await page.evaluate<string[]>(itemIds);
    expect(new Set(ids).size).toBe(ids.length);
    expect(page.problems.filter((problem) => !problem.includes('WebSocket'))).toEqual([]);
  });

  it('debug app-server inspect serves the demo: it streams, asks to run a command and writes a file', async () => {
    const demo = spawn(process.execPath, [DIST_MAIN, 'debug', 'app-server', 'inspect'], {
      cwd: sandbox.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    demo.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    demo.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolveExit) => demo.on('close', (code) => resolveExit(code)));
    try {
      const url = await eventually(
        async () => /^inspector: (http:\/\/127\.0\.0\.1:\d+\/inspector\/)\n$/.exec(stdout)?.[1],
      );
      const workspace = await eventually(async () => /demo workspace: (.+)\n/.exec(stderr)?.[1]);
      const page = await InspectorBrowser.launch(join(sandbox.root, 'chromium'));
      browser = page;
      await page.goto(url);
      await page.click('button', 'Connect');
      await page.waitFor('document.querySelector(".connection")?.textContent === "connected"');
      await page.click('button', 'New thread');
      await page.waitFor(threadOpen);
      await page.fill('textbox', 'Message', 'Show me what you can do');
      await page.press('Enter');
      // Caught mid-stream: some of the text, still in progress.
      const partial = await page.waitFor<string>(
        `(() => { const e = document.querySelector("[data-item-type=agentMessage]"); return e && e.querySelector(".badge").textContent === "inProgress" && e.querySelector(".message-text").textContent; })()`,
      );
      expect('Hello! This is the scripted demo model. First I will run a command.'.startsWith(partial)).toBe(
        true,
      );
      await page.find('dialog', 'Approval required');
      expect(
        await page.evaluate(
          'document.querySelector("dialog[open] [aria-label=\'Full command\']").textContent',
        ),
      ).toBe('echo "hello from the demo" && ls');
      await page.click('button', 'Allow');
      await page.waitFor(`${outputs}.some((text) => text.includes("hello from the demo"))`);
      await page.waitFor(
        `[...document.querySelectorAll(".diff-add")].some((e) => e.textContent === "+# Inspector demo\\n")`,
      );
      await page.waitFor(`${agentTexts}.includes("Done: ran a command and wrote inspector-demo.md.")`);
      await page.waitFor(`document.querySelector("[data-turn-id] .badge")?.textContent === "completed"`);
      expect(readFileSync(join(workspace, 'inspector-demo.md'), 'utf8')).toContain('Show me what you can do');
      // Tall enough for the whole demo turn (docs/inspector.png is a copy of this one).
      await page.setWidth(1400, 1300);
      await page.screenshot(join(OUTPUT_DIR, 'demo.png'));
      expect(page.problems).toEqual([]);
    } finally {
      demo.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^inspector: http:\/\/127\.0\.0\.1:\d+\/inspector\/\n$/);
  });
});

const threadItems = 'document.querySelectorAll("[aria-label=Threads] > li").length';
const logMethods = '[...document.querySelectorAll(".log-method")].map((e) => e.textContent)';
/** A thread is open: the composer takes input. */
const threadOpen = '!document.querySelector(".composer textarea").disabled';
/** Texts of the agent messages in the conversation, in order. */
const agentTexts =
  '[...document.querySelectorAll("[aria-label=Conversation] [data-item-type=agentMessage] .message-text")].map((e) => e.textContent)';
const outputs =
  '[...document.querySelectorAll("[aria-label=Conversation] pre.output")].map((e) => e.textContent)';
const itemIds =
  '[...document.querySelectorAll("[aria-label=Conversation] [data-item-id]")].map((e) => e.dataset.itemId)';
function itemStatuses(type: string): string {
  return `[...document.querySelectorAll("[data-item-type=${type}] .item-header .badge")].map((e) => e.textContent)`;
}

/** Text, a pause until `wait` settles, more text, then one tool call; `usage` ends the stream when given. */
function streamedToolCall(
  first: string[],
  wait: Promise<unknown>,
  rest: string[],
  call: { id: string; name: string; arguments: object },
  usage?: Parameters<typeof chunks.usage>[0],
): FakeReply {
  return {
    type: 'stream',
    steps: [
      { chunk: chunks.role() },
      ...first.map((text) => ({ chunk: chunks.content(text) })),
      { waitFor: wait },
      ...rest.map((text) => ({ chunk: chunks.content(text) })),
      { chunk: chunks.toolCall({ index: 0, id: call.id, name: call.name, arguments: '' }) },
      { chunk: chunks.toolCall({ index: 0, arguments: JSON.stringify(call.arguments) }) },
      { chunk: chunks.finish('tool_calls') },
      ...(usage === undefined ? [] : [{ chunk: chunks.usage(usage) }]),
    ],
  };
}

/** Text, a pause until `wait` settles, more text, then one bash call. */
function streamedBash(first: string[], wait: Promise<unknown>, rest: string[], command: string): FakeReply {
  return streamedToolCall(
    first,
    wait,
    rest,
    { id: 'call_bash', name: 'bash', arguments: { command } },
    USAGE,
  );
}

/** Text, a pause, more text, then `task_finish` with the whole text. */
function streamedFinish(first: string[], wait: Promise<unknown>, rest: string[]): FakeReply {
  const message = [...first, ...rest].join('');
  return streamedToolCall(first, wait, rest, {
    id: 'call_finish',
    name: 'task_finish',
    arguments: { message },
  });
}

/** A GET with the path sent exactly as written (fetch would normalize `..`). */
async function rawGet(
  port: number,
  path: string,
): Promise<{ status: number; headers: Record<string, string> }> {
  const { request } = await import('node:http');
  return new Promise((resolveResponse, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      response.resume();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) headers[name] = String(value);
      resolveResponse({ status: response.statusCode ?? 0, headers });
    });
    req.on('error', reject);
    req.end();
  });
}
