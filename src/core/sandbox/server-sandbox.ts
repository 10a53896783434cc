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

/** An embedder that configured nothing keeps the pre-v1.2 behaviour: no boundary, no restriction. */
export const UNSANDBOXED_SERVER: ServerSandbox = { maxMode: 'danger-full-access', boundary: null };

export const SERVER_SANDBOX = Symbol('SERVER_SANDBOX');

/** A `thread/start` / `turn/start` `sandbox` param: refused when looser than the server allows. */
export function checkRequestedMode(server: ServerSandbox, requested: SandboxMode | undefined): void {
  if (requested !== undefined && isLooserThan(requested, server.maxMode)) {
    throw DomainErrors.sandboxTooLoose(server.maxMode);
  }
}

/** The effective mode: the strictest of the server's and every narrower request. */
export function effectiveMode(server: ServerSandbox, ...requests: (SandboxMode | undefined)[]): SandboxMode {
  return strictestMode(server.maxMode, ...requests);
}

/** docs/spec/sandbox.md §4: `initialize` capability `sandbox`. */
export function sandboxCapability(server: ServerSandbox): { available: boolean; maxMode: SandboxMode } {
  return {
    available: server.boundary !== null && server.boundary.unavailableCause === null,
    maxMode: server.maxMode,
  };
}
