/**
 * `vv-agent debug app-server send-message <words…>` (docs/spec/protocol.md §12.6, docs/spec/runtime.md §15.4): one
 * scripted turn through an in-process server and an in-process `AppServerClient`, printing
 * `debug/input` and then every notification / server request up to and including `turn/completed`.
 * Needs no settings and no network.
 */
import type { LoggerService } from '@nestjs/common';
import { AppServerClient } from '../client';
import { AppServerClientError, CLIENT_MESSAGES } from '../client/app-server-client-error';
import type { AppServerModuleOptions } from '../nest/app-server-options';
import { DefaultAppServerHost } from '../core/host/default-app-server-host';
import { startInProcessAppServer } from '../nest/in-process-app-server';
import { StderrLogger } from '../nest/stderr-logger';
import { Agent } from '../runtime/agent';
import { finish, ScriptedModelProvider } from '../runtime/model/scripted-model';
import { Runner } from '../runtime/runner';
import { isClosedOutputError } from '../transports/stdio/closed-output';
import { packageVersion } from './package-version';

/** §12.6: without a message for this long the command fails. */
export const DEBUG_INACTIVITY_TIMEOUT_MS = 10_000;
export const DEBUG_INSTRUCTIONS = 'Answer the user, then finish.';
const DEBUG_MAX_CYCLES = 10;
const DEBUG_WORKSPACE = '.';

export interface DebugStreams {
  /** One JSON object per line; its 'error' events, when it has them, are handled here. */
  stdout: { write(chunk: string): unknown; on?(event: 'error', listener: (error: Error) => void): unknown };
  stderr: { write(chunk: string): unknown };
}

/** Scripted model with one `finish(message)` step, agent `assistant`, workspace `.`, in-memory store. */
export function debugServerOptions(message: string): AppServerModuleOptions {
  const modelProvider = new ScriptedModelProvider({ steps: [finish(message)] });
  const agent = Agent.create({
    name: 'assistant',
    instructions: DEBUG_INSTRUCTIONS,
    model: { type: 'named', model: modelProvider.defaultModel },
    maxCycles: DEBUG_MAX_CYCLES,
  });
  const runConfig = { maxCycles: DEBUG_MAX_CYCLES, workspace: DEBUG_WORKSPACE };
  return {
    runner: new Runner({ modelProvider, workspace: DEBUG_WORKSPACE }),
    host: new DefaultAppServerHost({ agent, runConfig, defaultWorkspace: DEBUG_WORKSPACE }),
    store: { path: ':memory:' },
    approvalPolicy: 'on-request',
  };
}

/** A request or message wait that ran out of time: both count as "no message for 10 s". */
function isTimeout(error: unknown): boolean {
  return (
    error instanceof AppServerClientError && error.message.startsWith('timed out waiting for App Server ')
  );
}

async function printTurn(
  client: AppServerClient,
  message: string,
  print: (value: unknown) => void,
  timeoutMs: number,
): Promise<void> {
  await client.initialize({ name: 'debug-cli', title: 'Debug CLI', version: packageVersion() });
  const thread = await client.startThread({ agentKey: 'default' });
  await client.startTurn({ threadId: thread.threadId, input: [{ type: 'text', text: message }] });
  for (;;) {
    const next = await client.tryNextMessage({ timeoutMs });
    // Responses to the client's own requests are not printed.
    if (next.method === undefined) continue;
    print(next);
    if (next.method === 'turn/completed') return;
  }
}

export interface DebugRunOptions {
  /** Default 10 s (§12.6). */
  inactivityTimeoutMs?: number;
  /** Default `debugServerOptions(message)`. */
  serverOptions?: AppServerModuleOptions;
  logger?: LoggerService;
}

/** Resolves with the exit code: 0 after `turn/completed`, 1 on timeout or failure. */
export async function runDebugSendMessage(
  message: string,
  streams: DebugStreams,
  options: DebugRunOptions = {},
): Promise<number> {
  const timeoutMs = options.inactivityTimeoutMs ?? DEBUG_INACTIVITY_TIMEOUT_MS;
  let outputClosed = false;
  let outputError: Error | null = null;
  streams.stdout.on?.('error', (error) => {
    // A reader that went away (`… | head -1`) ends the output, as for the listen server (§1.9);
    // any other stdout failure is fatal I/O (§12.3): exit 1 with the message.
    if (!outputClosed && !isClosedOutputError(error)) outputError = error;
    outputClosed = true;
  });
  const print = (value: unknown): void => {
    if (!outputClosed) streams.stdout.write(`${JSON.stringify(value)}\n`);
  };
  print({ jsonrpc: '2.0', method: 'debug/input', params: { message } });
  const server = await startInProcessAppServer(
    options.serverOptions ?? debugServerOptions(message),
    options.logger ?? new StderrLogger(),
  );
  const client = AppServerClient.inProcess(server, { requestTimeoutMs: timeoutMs });
  try {
    await printTurn(client, message, print, timeoutMs);
    if (outputError === null) return 0;
    streams.stderr.write(`${(outputError as Error).message}\n`);
    return 1;
  } catch (error) {
    const text = isTimeout(error)
      ? CLIENT_MESSAGES.messageTimeout
      : error instanceof Error
        ? error.message
        : String(error);
    streams.stderr.write(`${text}\n`);
    return 1;
  } finally {
    await client.close();
    await server.close();
  }
}
