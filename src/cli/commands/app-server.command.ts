import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { protocolOutput } from '../stdout-guard';
import { buildProductionServerOptions, CliConfigurationError } from '../production-server-options';
import { runStdioAppServer } from '../../nest/stdio-app-server';
import { GenerateTsCommand, SchemaCommand } from './schema.command';

/** `vv-agent app-server --listen stdio …`: the production stdio server (protocol.md §12.3, §12.4). */
@Command({
  name: 'app-server',
  description: 'Run the App Server on stdio',
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
    this.outcome.exitCode = await runStdioAppServer(options, {
      stdin: process.stdin,
      stdout: protocolOutput,
    });
  }
}
