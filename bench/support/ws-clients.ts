/**
 * WebSocket side of the benches: the built CLI listening on `ws://127.0.0.1:0` (`--ws-no-auth`,
 * loopback only; it prints its URL on stderr, docs/websocket.md), any plain-Node floor that prints
 * the same readiness line, and lean `ws` clients that stamp every frame with its read time and
 * share JsonlPeer's request/wait logic (MessagePeer), so the server and its floors are read the same
 * way.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import WebSocket from 'ws';
import { appServerArgs, type BenchWorkspace } from './app-server-launch';
import { type JsonMessage, MessagePeer } from './jsonl-peer';

const READINESS_LINE = /listening on (ws:\/\/\S+)/;

/** A child process serving WebSocket clients; `url` once it printed its readiness line. */
export class WsServerChild {
  private stderrTail = '';

  private constructor(
    readonly process: ChildProcessWithoutNullStreams,
    readonly url: string,
  ) {
    process.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
  }

  /** Spawns `node <args>` and resolves once it printed `… listening on ws://…` on stderr. */
  static start(
    args: string[],
    options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  ): Promise<WsServerChild> {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.setEncoding('utf8');
    child.stdout.resume();
    let stderr = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening after 30 s: ${stderr}`)), 30_000);
      const onData = (chunk: string) => {
        stderr += chunk;
        const match = READINESS_LINE.exec(stderr);
        if (!match) return;
        clearTimeout(timer);
        child.stderr.off('data', onData);
        resolve(new WsServerChild(child, match[1]));
      };
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
    });
  }

  get pid(): number {
    const pid = this.process.pid;
    if (pid === undefined) throw new Error('child has no pid');
    return pid;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  /** SIGTERM and the exit (SIGKILL after `timeoutMs`). */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('close', resolve));
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The App Server on `ws://127.0.0.1:0`, no token (loopback). */
export function startWsAppServer(workspace: BenchWorkspace, store: string): Promise<WsServerChild> {
  return WsServerChild.start(appServerArgs(workspace, store, [], ['ws://127.0.0.1:0', '--ws-no-auth']), {
    cwd: workspace.dir,
    env: { ...process.env, VV_AGENT_HOME: workspace.dir },
  });
}

/** One WebSocket connection; every text frame parsed once and handed to listeners with its read time. */
export class BenchWsClient extends MessagePeer {
  private invalid = 0;
  readonly closed: Promise<void>;

  private constructor(readonly socket: WebSocket) {
    super();
    socket.on('message', (data: WebSocket.RawData) => {
      const readAtNs = process.hrtime.bigint();
      let message: JsonMessage;
      try {
        message = JSON.parse(data.toString()) as JsonMessage;
      } catch {
        this.invalid += 1;
        return;
      }
      this.deliver(message, readAtNs);
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static connect(url: string): Promise<BenchWsClient> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new BenchWsClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Frames that were not JSON (must stay 0). */
  get invalidFrames(): number {
    return this.invalid;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  close(): Promise<void> {
    this.socket.close();
    return this.closed;
  }
}

/**
 * `count` connections to `url`, each `initialize`d (then `initialized`), opened `window` at a time
 * (the server's accept backlog and this machine's two cores). Closes what opened when one fails.
 */
export async function connectInitialized(url: string, count: number, window = 50): Promise<BenchWsClient[]> {
  const clients: BenchWsClient[] = [];
  try {
    for (let first = 0; first < count; first += window) {
      const batch = Array.from({ length: Math.min(window, count - first) }, async () => {
        const client = await BenchWsClient.connect(url);
        clients.push(client);
        await client.call('init', 'initialize', { clientInfo: { name: 'vv-bench', version: '0.1.0' } });
        client.send({ jsonrpc: '2.0', method: 'initialized' });
        return client;
      });
      await Promise.all(batch);
    }
    return clients;
  } catch (error) {
    await closeAll(clients);
    throw error;
  }
}

export async function closeAll(clients: readonly BenchWsClient[]): Promise<void> {
  await Promise.all(clients.map((client) => client.close()));
}
