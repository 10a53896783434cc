/**
 * Runs a parsed invocation. The pure parser (command-line-parser.ts) is the single source of the CLI's
 * rules and exact usage errors; nest-commander hosts the command classes and routes a canonical argv
 * to them, so commander's own option parsing and help never see user input.
 */
import { CommandFactory, CommandRunnerService } from './nest-commander';
import type { CliInvocation, ServerInvocation } from './cli-invocation';
import { CliOutcome } from './cli-outcome';
import { CliModule } from './cli.module';
import { StderrLogger } from '../nest/stderr-logger';

/**
 * The one-shot commands nest-commander runs. Help and usage errors are answered by cli-main.ts, and
 * the servers start without nest-commander (server-command.ts).
 */
export type CommandInvocation = Exclude<
  CliInvocation,
  { kind: 'help' } | { kind: 'version' } | { kind: 'usage-error' } | ServerInvocation
>;

const CANONICAL_ARGV: Record<CommandInvocation['kind'], string[]> = {
  schema: ['app-server', 'schema'],
  'generate-ts': ['app-server', 'generate-ts'],
  'debug-send-message': ['debug', 'app-server', 'send-message'],
  'debug-inspect': ['debug', 'app-server', 'inspect'],
  'native-host': ['native-host'],
};

export async function runCli(invocation: CommandInvocation): Promise<number> {
  const outcome = new CliOutcome();
  const app = await CommandFactory.createWithoutRunning(CliModule.forInvocation(invocation, outcome), {
    logger: new StderrLogger(),
    serviceErrorHandler: (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      outcome.exitCode = 1;
    },
  });
  try {
    await app.get(CommandRunnerService).run(['node', 'vv-agent', ...CANONICAL_ARGV[invocation.kind]]);
  } finally {
    await app.close();
  }
  return outcome.exitCode;
}
