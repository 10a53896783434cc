import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { packageVersion } from '../package-version';
import { protocolOutput } from '../stdout-guard';
import { buildProductionServerOptions, CliConfigurationError } from '../production-server-options';
import { runStdioAcpServer } from '../../nest/stdio-acp-server';

/** `vv-agent acp …`: the Agent Client Protocol on stdio over the App Server's core (acp.md §1). */
@Command({ name: 'acp', description: 'Serve the Agent Client Protocol on stdio' })
export class AcpCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'acp') return;
    let options;
    try {
      options = buildProductionServerOptions(this.invocation.options, process.env);
    } catch (error) {
      if (!(error instanceof CliConfigurationError)) throw error;
      process.stderr.write(`${error.message}\n`);
      this.outcome.exitCode = 2;
      return;
    }
    this.outcome.exitCode = await runStdioAcpServer(
      options,
      { stdin: process.stdin, stdout: protocolOutput },
      packageVersion(),
    );
  }
}
