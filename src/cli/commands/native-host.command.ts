/** `vv-agent native-host install | uninstall | status` (docs/spec/native-messaging.md §2). */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from '../nest-commander';
import { CLI_INVOCATION, type CliInvocation } from '../cli-invocation';
import { CliOutcome } from '../cli-outcome';
import { protocolOutput } from '../stdout-guard';
import { loadLlmSettings, resolveModelEndpoint } from '../../runtime/llm';
import type { NativeHostRequest } from '../native-host/native-host-request';
import {
  installNativeHost,
  nativeHostStatus,
  uninstallNativeHost,
  type InstallerContext,
} from '../native-host/native-host-installer';

@Command({ name: 'native-host', description: 'Install the App Server as a browser native messaging host' })
export class NativeHostCommand extends CommandRunner {
  constructor(
    @Inject(CLI_INVOCATION) private readonly invocation: CliInvocation,
    private readonly outcome: CliOutcome,
  ) {
    super();
  }

  async run(): Promise<void> {
    if (this.invocation.kind !== 'native-host') return;
    const request = this.invocation.request;
    const context: InstallerContext = {
      platform: process.platform,
      home: homedir(),
      env: process.env,
      cwd: process.cwd(),
      nodePath: process.execPath,
      // The launcher runs this very installation, wherever `vv-agent` was linked from.
      mainScript: realpathSync(process.argv[1]),
    };
    if (request.action === 'install') {
      // A host that cannot start fails silently inside the browser: refuse bad settings now (exit 2).
      const problem = settingsProblem(request.settings, request.backend, request.model);
      if (problem !== null) {
        process.stderr.write(`${problem}\n`);
        this.outcome.exitCode = 2;
        return;
      }
    }
    let lines: string[];
    try {
      lines = runRequest(request, context);
    } catch (error) {
      process.stderr.write(`failed to ${request.action} native host: ${(error as Error).message}\n`);
      this.outcome.exitCode = 1;
      return;
    }
    for (const line of lines) protocolOutput.write(`${line}\n`);
  }
}

function runRequest(request: NativeHostRequest, context: InstallerContext): string[] {
  switch (request.action) {
    case 'install':
      return installNativeHost(request, context);
    case 'uninstall':
      return uninstallNativeHost(request, context);
    case 'status':
      return nativeHostStatus(request, context);
  }
}

/** The loader's message (docs/spec/protocol.md §12.3 step 2), or null when the settings resolve the model. */
function settingsProblem(settings: string, backend: string, model: string): string | null {
  try {
    resolveModelEndpoint(loadLlmSettings(settings), backend, model);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
