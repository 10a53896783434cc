/** File tools under the sandbox mode (docs/spec/sandbox.md §1): a denied write fails `sandbox_denied`. */
import { UNCONFINED_RUN_SANDBOX } from '../../sandbox/run-sandbox';
import { sandboxWriteDenial } from '../../sandbox/write-guard';
import type { ToolContext } from '../types';
import { BuiltinToolError } from './tool-error';

export function assertSandboxAllowsWrite(ctx: ToolContext, absolutePath: string): void {
  const denial = sandboxWriteDenial(ctx.sandbox ?? UNCONFINED_RUN_SANDBOX, ctx.workspace, absolutePath);
  if (denial !== null) throw new BuiltinToolError('sandbox_denied', denial);
}
