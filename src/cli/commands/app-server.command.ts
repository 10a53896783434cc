import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { protocolOutput } from '../stdout-guard';
import { productionServerOptionsOrExit } from '../production-server-options';
import { runNativeMessagingAppServer, runStdioAppServer } from '../../nest/stdio-app-server';
import { runWebSocketAppServer } from '../../nest/websocket-app-server';
import { refuseNativeCaller } from '../../transports/native-messaging/native-caller';
import { readTokenFile, TokenFileError } from '../../transports/websocket/token-file';
import { WebSocketStartupError } from '../../transports/websocket/websocket.server';
import { GenerateTsCommand, SchemaCommand } from './schema.command';
import { readyLine } from '../ready-line';

/**
 * `vv-agent app-server --listen stdio|native-messaging|ws://HOST:PORT …`: the production server on
 * stdio (protocol.md §12.3, §12.4) as JSONL or as a browser's native messaging host
 * (native-messaging.md), or on WebSocket (websocket.md §1).
 */
@Command({
  name: 'app-server',
  description: 'Run the App Server on stdio (JSONL or native messaging) or WebSocket',
  subCommands: [SchemaCommand, GenerateTsCommand],
})
export class AppServerCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'listen') return;
    const listen = this.invocation.options;
    if (listen.listen === 'native-messaging') {
      // native-messaging.md §1: the caller is logged, and refused before any frame when not allowed.
      process.stderr.write(`native messaging caller: ${listen.nativeCaller ?? '(none)'}\n`);
      const refusal = refuseNativeCaller(listen.nativeCaller, listen.nativeAllowedCallers);
      if (refusal !== null) {
        process.stderr.write(`${refusal}\n`);
        this.outcome.exitCode = 2;
        return;
      }
    }
    const options = productionServerOptionsOrExit(this.invocation.options, process.env, this.outcome);
    if (options === null) return;
    const websocket = listen.websocket;
    if (websocket !== undefined) {
      const { tokenFile } = websocket;
      this.outcome.exitCode = await runWebSocketAppServer(options, {
        address: websocket.address,
        allowedOrigins: websocket.allowedOrigins,
        // Read after the store opened, before binding (websocket.md §1 startup order).
        loadToken: () => (tokenFile === null ? null : loadToken(tokenFile)),
      });
      return;
    }
    const io = { stdin: process.stdin, stdout: protocolOutput };
    const ready = (): void => void process.stderr.write(`${readyLine(listen, process.env)}\n`);
    this.outcome.exitCode =
      listen.listen === 'native-messaging'
        ? await runNativeMessagingAppServer(options, io, ready)
        : await runStdioAppServer(options, io, ready);
  }
}

function loadToken(path: string): string {
  try {
    return readTokenFile(path);
  } catch (error) {
    if (error instanceof TokenFileError) throw new WebSocketStartupError(error.message, 2);
    throw error;
  }
}
