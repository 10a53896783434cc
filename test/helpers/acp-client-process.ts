/**
 * The REAL ACP client of `@agentclientprotocol/sdk` driving the built `vv-agent acp` as a child
 * process (docs/spec/acp.md §6), for e2e tests.
 *
 *   const acp = AcpClientProcess.spawn(sandbox, { permission: () => select('allow') });
 *   await acp.agent.request('initialize', { protocolVersion: 1 });
 *   const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
 *   const { stopReason } = await acp.agent.request('session/prompt', { sessionId, prompt: [...] });
 *   acp.updatesOf(sessionId);   // every session/update the client received, in order
 *   await acp.close();          // stdin EOF → exit code
 *
 * Every stdout line is recorded too, so a test can check stdout carried JSON-RPC only.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough, Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { BACKEND, MODEL, type E2eSandbox } from './app-server-session';
import { DIST_MAIN } from './jsonl-child';

export type PermissionAnswer = (
  request: acp.RequestPermissionRequest,
) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

export interface AcpSpawnOptions {
  /** Store file name in the sandbox (default `store.sqlite`, shared with `sandbox.spawn()`). */
  store?: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** How the client answers `session/request_permission`; default: cancelled. */
  permission?: PermissionAnswer;
}

export const select = (optionId: string): acp.RequestPermissionResponse => ({
  outcome: { outcome: 'selected', optionId },
});

export class AcpClientProcess {
  readonly updates: acp.SessionNotification[] = [];
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  readonly stdoutLines: string[] = [];
  stderr = '';
  readonly agent: acp.ClientContext;
  private readonly connection: acp.ClientConnection;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters = new Set<() => void>();
  private partialLine = '';
  /** What the SDK client reads; stdout is piped into it unless the test stopped reading. */
  private readonly stdoutIn = new PassThrough();

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    permission: PermissionAnswer,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => this.recordStdout(chunk.toString('utf8')));
    child.stdout.pipe(this.stdoutIn);
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(this.stdoutIn) as ReadableStream<Uint8Array>,
    );
    this.connection = acp
      .client({ name: 'vv-agent-e2e' })
      .onNotification('session/update', ({ params }) => {
        this.updates.push(params);
        for (const wake of [...this.waiters]) wake();
      })
      .onRequest('session/request_permission', async ({ params }) => {
        this.permissionRequests.push(params);
        for (const wake of [...this.waiters]) wake();
        return permission(params);
      })
      .connect(stream);
    this.agent = this.connection.agent;
  }

  static spawn(sandbox: E2eSandbox, options: AcpSpawnOptions = {}): AcpClientProcess {
    const args = [
      DIST_MAIN,
      'acp',
      '--settings',
      sandbox.settingsPath,
      '--backend',
      BACKEND,
      '--model',
      MODEL,
      '--store',
      sandbox.storePath(options.store),
      ...(options.args ?? []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: sandbox.root,
      env: { ...process.env, VV_AGENT_HOME: sandbox.root, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new AcpClientProcess(child, options.permission ?? (() => ({ outcome: { outcome: 'cancelled' } })));
  }

  /** `initialize` with the protocol version of this SDK. */
  initialize(): Promise<acp.InitializeResponse> {
    return this.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
  }

  updatesOf(sessionId: string): acp.SessionUpdate[] {
    return this.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  }

  /** Resolves once `predicate` holds for what the client has received (updates, permission requests). */
  async until(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`timed out after ${timeoutMs} ms; updates: ${JSON.stringify(this.updates)}`));
      }, timeoutMs);
      const wake = (): void => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      this.waiters.add(wake);
    });
  }

  /**
   * Stops reading the server's stdout (an editor that hangs): once the pipe is full the server's
   * writes wait. Unpiped as well as paused, so a `drain` of the SDK side cannot resume the flow.
   */
  stopReading(): void {
    this.child.stdout.unpipe(this.stdoutIn);
    this.child.stdout.pause();
  }

  /** Reads stdout again, from where it stopped. */
  resumeReading(): void {
    this.child.stdout.pipe(this.stdoutIn);
    this.child.stdout.resume();
  }

  /** Every stdout line so far was one JSON-RPC 2.0 object (stdout is protocol only). */
  stdoutProblems(): string[] {
    return this.stdoutLines.flatMap((line) => {
      try {
        const message = JSON.parse(line) as { jsonrpc?: unknown };
        return message !== null && typeof message === 'object' && message.jsonrpc === '2.0' ? [] : [line];
      } catch {
        return [line];
      }
    });
  }

  /** stdin EOF: the server shuts down gracefully; resolves with how it exited. */
  async close(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.waitExit(timeoutMs);
  }

  async waitExit(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      this.exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`acp did not exit in ${timeoutMs} ms: ${this.stderr}`)),
          timeoutMs,
        );
      }),
    ]);
    clearTimeout(timer);
    this.connection.close();
    return exit;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
    this.connection.close();
  }

  /** Test teardown: kills the process and returns what it wrote on stdout that was not protocol. */
  async killReportingStdoutProblems(): Promise<string[]> {
    const problems = this.stdoutProblems();
    await this.kill();
    return problems;
  }

  private recordStdout(text: string): void {
    const lines = (this.partialLine + text).split('\n');
    this.partialLine = lines.pop() ?? '';
    this.stdoutLines.push(...lines.filter((line) => line.trim() !== ''));
  }
}

/** What a client holds after a session's updates: agent texts in order, each tool call merged, the last plan. */
export function foldUpdates(updates: readonly acp.SessionUpdate[]): {
  userTexts: string[];
  agentTexts: string[];
  toolCalls: Array<Record<string, unknown>>;
  plan: unknown;
} {
  const userTexts: string[] = [];
  const agentTexts: string[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  let plan: unknown = null;
  let lastWasAgentText = false;
  for (const update of updates) {
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      if (lastWasAgentText) agentTexts[agentTexts.length - 1] += update.content.text;
      else agentTexts.push(update.content.text);
      lastWasAgentText = true;
      continue;
    }
    lastWasAgentText = false;
    if (update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text')
      userTexts.push(update.content.text);
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
      const { sessionUpdate: _kind, ...state } = update;
      calls.set(update.toolCallId, { ...calls.get(update.toolCallId), ...state });
    }
    if (update.sessionUpdate === 'plan') plan = update.entries;
  }
  return { userTexts, agentTexts, toolCalls: [...calls.values()], plan };
}
