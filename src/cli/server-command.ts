/**
 * The two long-running commands, `app-server` (docs/spec/protocol.md §12.3, docs/spec/websocket.md §1,
 * docs/spec/native-messaging.md §1) and `acp` (docs/spec/acp.md §1), run straight from the parsed invocation. A client
 * spawns one per connection and waits for it, so they skip nest-commander: its Nest application and
 * CLI stack (commander, inquirer, cosmiconfig) would cost ~25 ms of every start-up just to route a
 * command the parser has already resolved (docs/performance-notes.md). nest-commander hosts the
 * one-shot commands (run-cli.ts). Each transport's server is loaded only when it is the one asked for.
 */
import type { ListenOptions, ServerInvocation } from './cli-invocation';
import { CliOutcome } from './cli-outcome';
import { packageVersion } from './package-version';
import { productionServerOptionsOrExit } from './production-server-options';
import { readyLine } from './ready-line';
import { protocolOutput } from './stdout-guard';
import type { RunningObservability } from './observability/start-observability';

/** Runs the server until its input ends or it fails to start; resolves to the exit code. */
export async function runServerCommand(invocation: ServerInvocation): Promise<number> {
  const outcome = new CliOutcome();
  const observability = await observe(invocation);
  try {
    if (invocation.kind === 'acp') await runAcp(invocation.options, outcome);
    else await runListen(invocation.options, outcome);
  } finally {
    await observability.stop();
  }
  return outcome.exitCode;
}

/** docs/spec/observability.md: logs first (every later line obeys them), then the exporters. */
async function observe(invocation: ServerInvocation): Promise<RunningObservability> {
  const options = invocation.options.observability;
  // Each module loads only when asked for, so a start without these options loads nothing more.
  if (options !== undefined) {
    const { configureStderrLogs } = await import('../nest/stderr-logger');
    configureStderrLogs(options.logFormat, options.logLevel);
    if (options.logFormat === 'json') (await import('./json-stderr')).installJsonStderr();
  }
  const { startObservability } = await import('./observability/start-observability');
  const { listen } = invocation.options;
  const transport = invocation.kind === 'acp' ? 'acp' : listen === 'ws' ? 'websocket' : listen;
  return startObservability(options, process.env, { transport, version: packageVersion() });
}

async function runListen(listen: ListenOptions, outcome: CliOutcome): Promise<void> {
  if (listen.listen === 'native-messaging') {
    // docs/spec/native-messaging.md §1: the caller is logged, and refused before any frame when not allowed.
    process.stderr.write(`native messaging caller: ${listen.nativeCaller ?? '(none)'}\n`);
    const { refuseNativeCaller } = await import('../transports/native-messaging/native-caller');
    const refusal = refuseNativeCaller(listen.nativeCaller, listen.nativeAllowedCallers);
    if (refusal !== null) {
      process.stderr.write(`${refusal}\n`);
      outcome.exitCode = 2;
      return;
    }
  }
  const options = productionServerOptionsOrExit(listen, process.env, outcome);
  if (options === null) return;
  const websocket = listen.websocket;
  if (websocket !== undefined) {
    const { runWebSocketAppServer, loadWebSocketToken, inspectorOrExit } = await import('./websocket-listen');
    const { tokenFile } = websocket;
    const inspector = websocket.inspector === true ? inspectorOrExit(outcome) : undefined;
    if (inspector === null) return;
    outcome.exitCode = await runWebSocketAppServer(options, {
      address: websocket.address,
      allowedOrigins: websocket.allowedOrigins,
      ...(inspector !== undefined ? { inspector } : {}),
      // Read after the store opened, before binding (docs/spec/websocket.md §1 startup order).
      loadToken: () => (tokenFile === null ? null : loadWebSocketToken(tokenFile)),
    });
    return;
  }
  const io = { stdin: process.stdin, stdout: protocolOutput };
  const ready = (): void => void process.stderr.write(`${readyLine(listen, process.env)}\n`);
  const { runNativeMessagingAppServer, runStdioAppServer } = await import('../nest/stdio-app-server');
  outcome.exitCode =
    listen.listen === 'native-messaging'
      ? await runNativeMessagingAppServer(options, io, ready)
      : await runStdioAppServer(options, io, ready);
}

async function runAcp(listen: ListenOptions, outcome: CliOutcome): Promise<void> {
  const options = productionServerOptionsOrExit(listen, process.env, outcome);
  if (options === null) return;
  const { runStdioAcpServer } = await import('../nest/stdio-acp-server');
  outcome.exitCode = await runStdioAcpServer(
    options,
    { stdin: process.stdin, stdout: protocolOutput },
    packageVersion(),
  );
}
