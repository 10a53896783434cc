#!/usr/bin/env node
// The stdout guard must be the first import: it redirects every non-protocol write to stderr.
import { protocolOutput } from './cli/stdout-guard';
import { parseCommandLine } from './cli/command-line-parser';
import { HELP_TEXT } from './cli/help-text';
import { commandHelp, USAGE_LINE } from './cli/command-help';
import { packageVersion } from './cli/package-version';
import type { CliInvocation } from './cli/cli-invocation';

function exitWhenFlushed(code: number): void {
  protocolOutput.stream.write('', () => process.exit(code));
}

/** Help and usage errors answer without loading Nest, TypeORM or the runtime (about a second of start-up). */
async function run(invocation: CliInvocation): Promise<number> {
  if (invocation.kind === 'help') {
    protocolOutput.write(
      invocation.command === undefined ? HELP_TEXT : HELP_TEXT + commandHelp(invocation.command),
    );
    return 0;
  }
  if (invocation.kind === 'version') {
    protocolOutput.write(`${packageVersion()}\n`);
    return 0;
  }
  if (invocation.kind === 'usage-error') {
    process.stderr.write(`${invocation.message}\n${USAGE_LINE}\n`);
    return 2;
  }
  await import('reflect-metadata');
  const { runCli } = await import('./cli/run-cli');
  return runCli(invocation);
}

run(parseCommandLine(process.argv.slice(2))).then(exitWhenFlushed, (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitWhenFlushed(1);
});
