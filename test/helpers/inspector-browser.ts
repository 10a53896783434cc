/**
 * Headless Debian Chromium driven through the DevTools protocol for the inspector e2e tests
 * (docs/spec/inspector.md §4). Tests act as a person does: elements are found by their role and
 * accessible name (the accessibility tree, §2), and clicks and keys are real input events
 * (`Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`, `Input.insertText`). What the page shows is
 * read with `Runtime.evaluate`. Everything the browser reports is recorded: console errors,
 * exceptions, log entries (CSP violations arrive there), JavaScript dialogs and every network
 * request, so a test can assert there were none it did not expect.
 *
 *   const browser = await InspectorBrowser.launch(profileDir);
 *   await browser.goto(url);
 *   await browser.click('button', 'Connect');
 *   await browser.close();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import CDP from 'chrome-remote-interface';
import { eventually } from './app-server-session';
import { stopProcessGroup } from './process-group';

export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

type Client = CDP.Client;

export class InspectorBrowser {
  /** Console errors, uncaught exceptions and error-level log entries (CSP violations included). */
  readonly problems: string[] = [];
  /** URLs of every HTTP request and WebSocket the page made. */
  readonly requests: string[] = [];
  /** JavaScript dialogs (alert, confirm …) the page tried to open: an XSS would show here. */
  readonly dialogs: string[] = [];
  private log = '';

  private constructor(
    private readonly process: ChildProcess,
    private readonly client: Client,
  ) {}

  static async launch(profile: string, width = 1400, height = 1000): Promise<InspectorBrowser> {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `${CHROMIUM} not found: install Debian's chromium package (apt-get install -y chromium)`,
      );
    mkdirSync(profile, { recursive: true });
    const child = spawn(
      CHROMIUM,
      [
        '--headless=new',
        // Root (CI) cannot use Chromium's sandbox.
        '--no-sandbox',
        `--user-data-dir=${profile}`,
        '--remote-debugging-port=0',
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-extensions',
        `--window-size=${width},${height}`,
        'about:blank',
      ],
      { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (log = `${log}${chunk}`.slice(-20_000)));
    const portFile = join(profile, 'DevToolsActivePort');
    const port = await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`chromium exited early:\n${log}`);
      if (!existsSync(portFile)) return undefined;
      const first = readFileSync(portFile, 'utf8').split('\n')[0];
      return /^\d+$/.test(first) ? Number(first) : undefined;
    }, 20_000);
    const target = await eventually(async () => {
      const targets = await CDP.List({ port });
      return targets.find((entry) => entry.type === 'page');
    }, 20_000);
    const client = await CDP({ port, target });
    const browser = new InspectorBrowser(child, client);
    browser.log = log;
    await browser.watch(width, height);
    return browser;
  }

  private async watch(width: number, height: number): Promise<void> {
    const { Runtime, Log, Network, Page, DOM, Emulation } = this.client;
    Runtime.consoleAPICalled((event) => {
      if (event.type === 'error' || event.type === 'assert')
        this.problems.push(
          `console.${event.type}: ${event.args.map((arg) => arg.value ?? arg.description).join(' ')}`,
        );
    });
    Runtime.exceptionThrown((event) =>
      this.problems.push(
        `exception: ${event.exceptionDetails.exception?.description ?? event.exceptionDetails.text}`,
      ),
    );
    Log.entryAdded(({ entry }) => {
      if (entry.level === 'error' || entry.source === 'security' || entry.source === 'violation')
        this.problems.push(`log ${entry.source}/${entry.level}: ${entry.text} ${entry.url ?? ''}`);
    });
    Network.requestWillBeSent((event) => this.requests.push(event.request.url));
    Network.webSocketCreated((event) => this.requests.push(event.url));
    Page.javascriptDialogOpening((event) => {
      this.dialogs.push(`${event.type}: ${event.message}`);
      void Page.handleJavaScriptDialog({ accept: false });
    });
    await Promise.all([Runtime.enable(), Log.enable(), Network.enable({}), Page.enable(), DOM.enable({})]);
    await Emulation.setDeviceMetricsOverride({ width, height, deviceScaleFactor: 1, mobile: false });
  }

  async setWidth(width: number, height: number): Promise<void> {
    await this.client.Emulation.setDeviceMetricsOverride({
      width,
      height,
      deviceScaleFactor: 1,
      mobile: width < 500,
    });
  }

  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => this.client.Page.loadEventFired(() => resolve()));
    await this.client.Page.navigate({ url });
    await loaded;
  }

  async reload(): Promise<void> {
    const loaded = new Promise<void>((resolve) => this.client.Page.loadEventFired(() => resolve()));
    await this.client.Page.reload({});
    await loaded;
  }

  /** The value of a page expression (JSON-serializable). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.client.Runtime.evaluate({
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails !== undefined)
      throw new Error(`evaluate failed: ${exceptionDetails.text} in ${expression}`);
    return result.value as T;
  }

  /** Waits until the expression is truthy and returns its value. */
  async waitFor<T>(expression: string, timeoutMs = 15_000): Promise<T> {
    return eventually(async () => {
      const value = await this.evaluate<T>(expression);
      return value ? value : undefined;
    }, timeoutMs).catch((error: Error) => {
      throw new Error(`${error.message}: ${expression}`);
    });
  }

  /** The DOM node of the (first) element with this role (`*`: any role) and accessible name; waits for it. */
  async find(role: string, name: string, timeoutMs = 15_000): Promise<number> {
    return eventually(async () => {
      const { root } = await this.client.DOM.getDocument({ depth: 0 });
      const { nodes } = await this.client.Accessibility.queryAXTree({
        nodeId: root.nodeId,
        accessibleName: name,
        ...(role === '*' ? {} : { role }),
      });
      const node = nodes.find((entry) => entry.backendDOMNodeId !== undefined && entry.ignored !== true);
      return node?.backendDOMNodeId;
    }, timeoutMs).catch(() => {
      throw new Error(`no ${role} named ${JSON.stringify(name)}`);
    });
  }

  async exists(role: string, name: string): Promise<boolean> {
    const { root } = await this.client.DOM.getDocument({ depth: 0 });
    const { nodes } = await this.client.Accessibility.queryAXTree({
      nodeId: root.nodeId,
      accessibleName: name,
      role,
    });
    return nodes.some((entry) => entry.backendDOMNodeId !== undefined && entry.ignored !== true);
  }

  /** A real mouse click in the middle of the element. */
  async click(role: string, name: string): Promise<void> {
    const backendNodeId = await this.find(role, name);
    await this.client.DOM.scrollIntoViewIfNeeded({ backendNodeId });
    const { quads } = await this.client.DOM.getContentQuads({ backendNodeId });
    const quad = quads[0];
    if (quad === undefined) throw new Error(`${role} ${name} is not visible`);
    const x = (quad[0] + quad[2] + quad[4] + quad[6]) / 4;
    const y = (quad[1] + quad[3] + quad[5] + quad[7]) / 4;
    const { Input } = this.client;
    await Input.dispatchMouseEvent({ type: 'mouseMoved', x, y });
    await Input.dispatchMouseEvent({ type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await Input.dispatchMouseEvent({ type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
  }

  /** Clicks the field, selects what it holds and types the text over it. */
  async fill(role: string, name: string, text: string): Promise<void> {
    await this.click(role, name);
    const { Input } = this.client;
    // Ctrl+A; headless Chromium needs the editing command named to select.
    const selectAll = { key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, modifiers: 2 };
    await Input.dispatchKeyEvent({ type: 'keyDown', ...selectAll, commands: ['selectAll'] });
    await Input.dispatchKeyEvent({ type: 'keyUp', ...selectAll });
    await Input.insertText({ text });
  }

  /** Lets the page use the clipboard (Copy as JSONL) without a permission prompt. */
  async allowClipboard(origin: string): Promise<void> {
    await this.client.Browser.grantPermissions({
      origin,
      permissions: ['clipboardReadWrite', 'clipboardSanitizedWrite'],
    });
  }

  /** The label (or text) of the focused element: where Tab moved to. */
  async focusedName(): Promise<string> {
    return this.evaluate<string>(
      '(() => { const e = document.activeElement; const label = e?.labels?.[0]; return label ? label.firstChild.textContent.trim() : (e?.textContent ?? "").trim(); })()',
    );
  }

  async press(key: 'Enter' | 'Escape' | 'Tab'): Promise<void> {
    const codes = { Enter: 13, Escape: 27, Tab: 9 } as const;
    await this.key(key, key, codes[key], 0);
  }

  private async key(key: string, code: string, keyCode: number, modifiers: number): Promise<void> {
    const { Input } = this.client;
    const text = key === 'Enter' ? { text: '\r' } : {};
    await Input.dispatchKeyEvent({
      type: 'keyDown',
      key,
      code,
      windowsVirtualKeyCode: keyCode,
      modifiers,
      ...text,
    });
    await Input.dispatchKeyEvent({ type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode, modifiers });
  }

  async screenshot(path: string): Promise<void> {
    const { data } = await this.client.Page.captureScreenshot({
      format: 'png',
      captureBeyondViewport: false,
    });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from(data, 'base64'));
  }

  /** Closes the browser and every helper process it started. */
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await stopProcessGroup(this.process);
  }

  get stderr(): string {
    return this.log;
  }
}
