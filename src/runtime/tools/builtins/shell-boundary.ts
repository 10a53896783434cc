/**
 * Where one `bash` command runs (docs/spec/sandbox.md §1, §3): inside the run's OS sandbox for a confined
 * mode, failing closed when there is none (`sandbox_unavailable`), or unconfined for
 * `danger-full-access`. Checked per call, decided once per server: the boundary was probed at startup.
 */
import type { PreparedSandbox } from '../../sandbox/command-sandbox';
import { SandboxRefusal } from '../../sandbox/command-sandbox';
import { sandboxReport, UNCONFINED_RUN_SANDBOX, type RunSandbox } from '../../sandbox/run-sandbox';
import { isConfined, type SandboxReport } from '../../sandbox/sandbox-mode';
import { BuiltinToolError } from './tool-error';

export interface ShellBoundary {
  /** The call's resolved sandbox; absent = run the shell as is. */
  sandbox?: PreparedSandbox;
  /** §4: present for a sandboxed call. */
  report?: SandboxReport;
}

export function unavailableMessage(cause: string): string {
  return `Sandbox unavailable (${cause}); bash calls fail until the server runs with --sandbox danger-full-access.`;
}

export function shellBoundary(
  sandbox: RunSandbox = UNCONFINED_RUN_SANDBOX,
  workspace: string,
  cwd: string,
): ShellBoundary {
  const { mode, boundary } = sandbox;
  if (!isConfined(mode)) return {};
  const cause = boundary === null ? 'no sandbox configured' : boundary.unavailableCause;
  if (boundary === null || cause !== null) {
    throw new BuiltinToolError('sandbox_unavailable', unavailableMessage(cause ?? 'unknown'));
  }
  try {
    // Resolved and refused now, before anything starts, rather than inside the spawn.
    return { sandbox: boundary.prepare({ mode, workspace, cwd }), report: sandboxReport(sandbox) };
  } catch (error) {
    if (error instanceof SandboxRefusal) throw new BuiltinToolError('sandbox_denied', error.message);
    throw error;
  }
}
