import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { protocolOutput } from '../stdout-guard';
import { buildProductionServerOptions, CliConfigurationError } from '../production-server-options';
import { runStdioAppServer } from '../../nest/stdio-app-server';
import { runWebSocketAppServer } from '../../nest/websocket-app-server';
import { readTokenFile, TokenFileError } from '../../transports/websocket/token-file';
import { WebSocketStartupError } from '../../transports/websocket/websocket.server';
import { GenerateTsCommand, SchemaCommand } from './schema.command';

/**
 * `vv-agent app-server --listen stdio|ws://HOST:PORT …`: the production server over stdio
 * (protocol.md §12.3, §12.4) or WebSocket (websocket.md §1).
 */
@Command({
  name: 'app-server',
  description: 'Run the App Server on stdio or WebSocket',
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
    let options;
    try {
      options = buildProductionServerOptions(this.invocation.options, process.env);
    } catch (error) {
      if (!(error instanceof CliConfigurationError)) throw error;
      process.stderr.write(`${error.message}\n`);
      this.outcome.exitCode = 2;
      return;
    }
    if (this.invocation.options.listen === 'native-messaging') {
      // Parsed already (websocket.md §1 lists it); its transport is wired separately (native-messaging.md).
      process.stderr.write('--listen native-messaging is not available in this build\n');
      this.outcome.exitCode = 2;
      return;
    }
    const websocket = this.invocation.options.websocket;
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
    this.outcome.exitCode = await runStdioAppServer(options, {
      stdin: process.stdin,
      stdout: protocolOutput,
    });
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
