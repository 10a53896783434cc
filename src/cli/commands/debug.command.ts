/**
 * `vv-agent debug app-server send-message <words…>` (docs/spec/protocol.md §12.6) and `debug app-server inspect`
 * (docs/spec/inspector.md §1) as nest-commander commands.
 */
import { Inject } from '@nestjs/common';
import { Command, CommandRunner, SubCommand } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { protocolOutput } from '../stdout-guard';

@SubCommand({ name: 'send-message', description: 'Run one scripted demo turn in-process' })
export class DebugSendMessageCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'debug-send-message') return;
    // Loaded when run: the in-process server, client and scripted model serve only this command.
    const { runDebugSendMessage } = await import('../debug-send-message');
    this.outcome.exitCode = await runDebugSendMessage(this.invocation.message, {
      stdout: {
        write: (chunk) => protocolOutput.write(chunk),
        on: (event, listener) => protocolOutput.on(event, listener),
      },
      stderr: process.stderr,
    });
  }
}

@SubCommand({ name: 'inspect', description: 'Serve the inspector page with a scripted demo model' })
export class DebugInspectCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'debug-inspect') return;
    // Loaded when run: the WebSocket server, the page and the demo model serve only this command.
    const { runDebugInspect } = await import('../inspect/debug-inspect');
    this.outcome.exitCode = await runDebugInspect(this.invocation, {
      stdout: protocolOutput,
      stderr: process.stderr,
    });
  }
}

@SubCommand({ name: 'app-server', subCommands: [DebugSendMessageCommand, DebugInspectCommand] })
export class DebugAppServerCommand extends CommandRunner {
  async run(): Promise<void> {
    // Only reached through `send-message` / `inspect`; the parser rejects every other debug form.
  }
}

@Command({ name: 'debug', description: 'Debugging helpers', subCommands: [DebugAppServerCommand] })
export class DebugCommand extends CommandRunner {
  async run(): Promise<void> {
    // Only reached through `app-server send-message`.
  }
}
