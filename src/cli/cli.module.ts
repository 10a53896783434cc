import { Module, type DynamicModule } from '@nestjs/common';
import { CLI_INVOCATION, type CliInvocation } from './cli-invocation';
import { CliOutcome } from './cli-outcome';
import { AppServerCommand } from './commands/app-server.command';
import { AcpCommand } from './commands/acp.command';
import { DebugAppServerCommand, DebugCommand, DebugSendMessageCommand } from './commands/debug.command';
import { GenerateTsCommand, SchemaCommand } from './commands/schema.command';

/** The nest-commander application: one command class per CLI command, fed the parsed invocation. */
@Module({})
export class CliModule {
  static forInvocation(invocation: CliInvocation, outcome: CliOutcome): DynamicModule {
    return {
      module: CliModule,
      providers: [
        { provide: CLI_INVOCATION, useValue: invocation },
        { provide: CliOutcome, useValue: outcome },
        AppServerCommand,
        AcpCommand,
        SchemaCommand,
        GenerateTsCommand,
        DebugCommand,
        DebugAppServerCommand,
        DebugSendMessageCommand,
      ],
    };
  }
}
