/**
 * `vv-agent debug app-server inspect [--port N] [--open]` (docs/spec/inspector.md §1): a loopback
 * WebSocket server with no auth, an in-memory store, the demo model and the inspector page; prints
 * the page's URL on stdout (this is a one-shot command, not a protocol stream) and runs until
 * SIGINT / SIGTERM. The demo writes into a fresh temporary workspace, never into the caller's folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultAppServerHost } from '../../core/host/default-app-server-host';
import type { AppServerModuleOptions } from '../../nest/app-server-options';
import { runAppServer } from '../../nest/run-app-server';
import { Agent } from '../../runtime/agent';
import { Runner } from '../../runtime/runner';
import { parseWebSocketListenAddress } from '../../transports/websocket/listen-address';
import { WebSocketJsonRpcServer } from '../../transports/websocket/websocket.server';
import { inspectorOrExit } from '../websocket-listen';
import { demoModelProvider } from './demo-model';

const DEMO_MAX_CYCLES = 10;

export interface InspectStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export function inspectServerOptions(workspace: string): AppServerModuleOptions {
  const modelProvider = demoModelProvider();
  const agent = Agent.create({
    name: 'assistant',
    instructions: 'Show what the agent does, step by step.',
    model: { type: 'named', model: modelProvider.defaultModel },
    tools: ['bash', 'write_file', 'read_file'],
    maxCycles: DEMO_MAX_CYCLES,
  });
  const runConfig = { maxCycles: DEMO_MAX_CYCLES, workspace };
  return {
    runner: new Runner({ modelProvider, workspace }),
    host: new DefaultAppServerHost({ agent, runConfig, defaultWorkspace: workspace }),
    store: { path: ':memory:' },
    approvalPolicy: 'on-request',
    // A person reads the dialog: give them longer than a client's 30 s default.
    approvalTimeoutMs: 300_000,
  };
}

/** Resolves with the exit code once the server stopped (0) or failed to start. */
export async function runDebugInspect(
  request: { port: number; open: boolean },
  streams: InspectStreams,
): Promise<number> {
  const outcome = { exitCode: 0 };
  const inspector = inspectorOrExit(outcome);
  if (inspector === null) return outcome.exitCode;
  const address = parseWebSocketListenAddress(`ws://127.0.0.1:${request.port}`);
  if (address === null) throw new Error(`invalid port ${request.port}`);
  const workspace = mkdtempSync(join(tmpdir(), 'vv-agent-inspect-'));
  const server = new WebSocketJsonRpcServer({
    address,
    loadToken: () => null,
    allowedOrigins: [],
    inspector,
    stderr: streams.stderr,
  });
  return runAppServer(inspectServerOptions(workspace), server, () => {
    const url = `http://127.0.0.1:${server.port}/inspector/`;
    streams.stderr.write(`demo workspace: ${workspace}\n`);
    streams.stdout.write(`inspector: ${url}\n`);
    if (request.open) openBrowser(url, streams);
  });
}

/** `--open`: the platform's opener; a missing one is reported, never fatal. */
function openBrowser(url: string, streams: InspectStreams): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', (error) => streams.stderr.write(`--open: ${command}: ${error.message}\n`));
  child.unref();
}
