import { Command, CommandRunner } from '../nest-commander';
import { GenerateTsCommand, SchemaCommand } from './schema.command';

/**
 * `vv-agent app-server` as nest-commander sees it: the parent of the one-shot `schema` and
 * `generate-ts` subcommands. The server itself (`app-server --listen …`) starts without
 * nest-commander (server-command.ts), so this command is never routed on its own.
 */
@Command({
  name: 'app-server',
  description: 'Run the App Server on stdio (JSONL or native messaging) or WebSocket',
  subCommands: [SchemaCommand, GenerateTsCommand],
})
export class AppServerCommand extends CommandRunner {
  async run(): Promise<void> {
    // Never reached: the parser sends a bare `app-server` to server-command.ts.
  }
}
