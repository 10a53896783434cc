/**
 * Runs a parsed invocation. The pure parser (command-line-parser.ts) is the single source of the CLI's
 * rules and exact usage errors; nest-commander hosts the command classes and routes a canonical argv
 * to them, so commander's own option parsing and help never see user input.
 */
import { CommandFactory, CommandRunnerService } from './nest-commander';
import type { CliInvocation } from './cli-invocation';
import { CliOutcome } from './cli-outcome';
import { CliModule } from './cli.module';
import { StderrLogger } from '../nest/stderr-logger';

/** The invocations that run a command (help and usage errors are answered by main.ts). */
export type CommandInvocation = Exclude<
  CliInvocation,
  { kind: 'help' } | { kind: 'version' } | { kind: 'usage-error' }
>;

const CANONICAL_ARGV: Record<CommandInvocation['kind'], string[]> = {
  listen: ['app-server'],
  schema: ['app-server', 'schema'],
  'generate-ts': ['app-server', 'generate-ts'],
  'debug-send-message': ['debug', 'app-server', 'send-message'],
  'native-host': ['native-host'],
  acp: ['acp'],
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
