import { Module, type DynamicModule } from '@nestjs/common';
import { CLI_INVOCATION, type CliInvocation } from './cli-invocation';
import { CliOutcome } from './cli-outcome';
import { AppServerCommand } from './commands/app-server.command';
import {
  DebugAppServerCommand,
  DebugCommand,
  DebugInspectCommand,
  DebugSendMessageCommand,
} from './commands/debug.command';
import { GenerateTsCommand, SchemaCommand } from './commands/schema.command';
import { NativeHostCommand } from './commands/native-host.command';

/**
 * The nest-commander application for the one-shot commands, fed the parsed invocation. The servers
 * (`app-server --listen`, `acp`) start without it (server-command.ts).
 */
@Module({})
export class CliModule {
  static forInvocation(invocation: CliInvocation, outcome: CliOutcome): DynamicModule {
    return {
      module: CliModule,
      providers: [
        { provide: CLI_INVOCATION, useValue: invocation },
        { provide: CliOutcome, useValue: outcome },
        AppServerCommand,
        SchemaCommand,
        GenerateTsCommand,
        DebugCommand,
        DebugAppServerCommand,
        DebugSendMessageCommand,
        DebugInspectCommand,
        NativeHostCommand,
      ],
    };
  }
}
