/**
 * The CLI program: what `dist/main.js` runs, from the bundle (dist/cli-bundle.js) or, without one, as
 * separate modules (src/main.ts).
 */
// The stdout guard must be the first import: it redirects every non-protocol write to stderr.
import { protocolOutput } from './stdout-guard';
import { parseCommandLine } from './command-line-parser';
import { HELP_TEXT } from './help-text';
import { commandHelp, USAGE_LINE } from './command-help';
import { packageVersion } from './package-version';
import { isServerInvocation, type CliInvocation } from './cli-invocation';
import { saveCodeCacheAfterStartup } from './code-cache/code-cache-save';
import { capYoungGeneration } from './v8-settings/young-generation';
import { yieldBackgroundThreads } from './v8-settings/background-threads';

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
  if (isServerInvocation(invocation)) {
    capYoungGeneration();
    yieldBackgroundThreads();
    saveCodeCacheAfterStartup();
    const { runServerCommand } = await import('./server-command');
    return runServerCommand(invocation);
  }
  const { runCli } = await import('./run-cli');
  return runCli(invocation);
}

run(parseCommandLine(process.argv.slice(2))).then(exitWhenFlushed, (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitWhenFlushed(1);
});
