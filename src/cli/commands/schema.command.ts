/**
 * `vv-agent app-server schema --out DIR` and `vv-agent app-server generate-ts --out DIR`
 * (docs/spec/protocol.md §11.4, §12.5): write the committed (build-embedded) schema files; nothing on stdout.
 * A write failure is `failed to write schema files: <cause>`, exit 1.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Inject } from '@nestjs/common';
import { CommandRunner, SubCommand } from '../nest-commander';
import { committedSchemaFiles } from '../../protocols/app-server-v1/schema/committed-schema-files';
import {
  jsonSchemaOutputFiles,
  typeScriptOutputFiles,
} from '../../protocols/app-server-v1/schema/schema-output-files';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { makeDirectory } from '../../runtime/make-directory';

async function writeOutput(outDir: string, files: Record<string, string>): Promise<void> {
  await makeDirectory(outDir);
  for (const [relativePath, text] of Object.entries(files)) {
    const path = join(outDir, relativePath);
    await makeDirectory(dirname(path));
    await writeFile(path, text);
  }
}

async function runSchemaOutput(
  outDir: string,
  files: Record<string, string>,
  outcome: CliOutcome,
): Promise<void> {
  try {
    await writeOutput(outDir, files);
  } catch (error) {
    process.stderr.write(
      `failed to write schema files: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    outcome.exitCode = 1;
  }
}

@SubCommand({ name: 'schema', description: 'Write the JSON Schemas' })
export class SchemaCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'schema') return;
    await runSchemaOutput(this.invocation.out, jsonSchemaOutputFiles(committedSchemaFiles()), this.outcome);
  }
}

@SubCommand({ name: 'generate-ts', description: 'Write the TypeScript declarations' })
export class GenerateTsCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'generate-ts') return;
    await runSchemaOutput(this.invocation.out, typeScriptOutputFiles(committedSchemaFiles()), this.outcome);
  }
}
