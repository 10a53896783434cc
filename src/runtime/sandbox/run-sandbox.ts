/**
 * The sandbox one run's tools work under (docs/spec/sandbox.md §1): its effective mode and the OS
 * boundary that enforces it for `bash`. File tools read the mode only (write-guard.ts).
 */
import type { CommandSandbox } from './command-sandbox';
import type { SandboxMode, SandboxReport } from './sandbox-mode';

export interface RunSandbox {
  mode: SandboxMode;
  /** null: no boundary was configured; a confined mode then fails `bash` closed. */
  boundary: CommandSandbox | null;
}

/** No boundary and no restriction: how a run's tools behave when its embedder configured no sandbox. */
export const UNCONFINED_RUN_SANDBOX: RunSandbox = { mode: 'danger-full-access', boundary: null };

/**
 * `RunConfig.sandbox` / `RunConfig.commandSandbox` (then the runner's defaults) → the run's
 * sandbox. A boundary without a mode means the default mode, `workspace-write` (§1); neither means
 * an embedder that chose no sandbox, as before v1.2 (null: nothing is restricted or reported).
 */
export function resolveRunSandbox(
  mode: SandboxMode | undefined,
  boundary: CommandSandbox | undefined,
): RunSandbox | null {
  if (mode === undefined && boundary === undefined) return null;
  return { mode: mode ?? 'workspace-write', boundary: boundary ?? null };
}

/** §4: `{mode, network}`; only `workspace-write` with `--sandbox-network` keeps the network. */
export function sandboxReport(sandbox: RunSandbox): SandboxReport {
  const network =
    sandbox.mode === 'danger-full-access' ||
    (sandbox.mode === 'workspace-write' && sandbox.boundary?.networkAllowed === true);
  return { mode: sandbox.mode, network };
}
