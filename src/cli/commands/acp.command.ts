import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { packageVersion } from '../package-version';
import { protocolOutput } from '../stdout-guard';
import { productionServerOptionsOrExit } from '../production-server-options';
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
    const options = productionServerOptionsOrExit(this.invocation.options, process.env, this.outcome);
    if (options === null) return;
    this.outcome.exitCode = await runStdioAcpServer(
      options,
      { stdin: process.stdin, stdout: protocolOutput },
      packageVersion(),
    );
  }
}
