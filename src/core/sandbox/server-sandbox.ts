/**
 * The server's sandbox (docs/spec/sandbox.md §1): the most permissive mode any turn may use and the
 * boundary that enforces it. A thread or a turn may ask for a stricter mode only; the effective
 * mode of a turn is the strictest of the server's, the thread's, the turn's and the host's.
 */
import type { CommandSandbox } from '../../runtime/sandbox/command-sandbox';
import { isLooserThan, strictestMode, type SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { DomainErrors } from '../domain-error';

export interface ServerSandbox {
  /** `--sandbox` (default `workspace-write`). */
  readonly maxMode: SandboxMode;
  /** null: the embedder configured no OS boundary (confined modes then fail `bash` closed). */
  readonly boundary: CommandSandbox | null;
}

export const SERVER_SANDBOX = Symbol('SERVER_SANDBOX');

/**
 * A `thread/start` / `turn/start` `sandbox` param: refused when looser than the server allows.
 * `server` null: an embedder that configured no sandbox (AppServerModuleOptions.sandbox absent),
 * which keeps the pre-v1.2 behaviour — any mode may be asked for, none is imposed.
 */
export function checkRequestedMode(server: ServerSandbox | null, requested: SandboxMode | undefined): void {
  if (server !== null && requested !== undefined && isLooserThan(requested, server.maxMode)) {
    throw DomainErrors.sandboxTooLoose(server.maxMode);
  }
}

/**
 * The effective mode: the strictest of the server's and every narrower request; undefined when no
 * sandbox is configured and none was asked for (nothing is stored or reported then).
 */
export function effectiveMode(
  server: ServerSandbox | null,
  ...requests: (SandboxMode | undefined)[]
): SandboxMode | undefined {
  if (server === null && requests.every((mode) => mode === undefined)) return undefined;
  return strictestMode(server?.maxMode ?? 'danger-full-access', ...requests);
}

/** docs/spec/sandbox.md §4: `initialize` capability `sandbox`; absent when no sandbox is configured. */
export function sandboxCapability(
  server: ServerSandbox | null,
): { available: boolean; maxMode: SandboxMode } | undefined {
  if (server === null) return undefined;
  return {
    available: server.boundary !== null && server.boundary.unavailableCause === null,
    maxMode: server.maxMode,
  };
}
