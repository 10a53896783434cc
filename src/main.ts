#!/usr/bin/env node
// The stdout guard must be the first import: it redirects every non-protocol write to stderr.
import { protocolOutput } from './cli/stdout-guard';
import 'reflect-metadata';
import { parseCommandLine } from './cli/command-line-parser';
import { runCli } from './cli/run-cli';

function exitWhenFlushed(code: number): void {
  protocolOutput.stream.write('', () => process.exit(code));
}

runCli(parseCommandLine(process.argv.slice(2))).then(exitWhenFlushed, (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitWhenFlushed(1);
});
