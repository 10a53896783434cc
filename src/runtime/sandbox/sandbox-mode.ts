/**
 * The three sandbox modes (docs/spec/sandbox.md §1) and their order: a thread, a turn or a host may
 * only make a command's boundary stricter than the server's, never looser.
 */

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** The modes that put an OS boundary around a command. */
export type ConfinedSandboxMode = Exclude<SandboxMode, 'danger-full-access'>;

/** docs/spec/sandbox.md §4: what a sandboxed call (and a `bash` approval) reports. */
export interface SandboxReport {
  mode: SandboxMode;
  network: boolean;
}

export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value);
}

/** 0 = strictest. */
function looseness(mode: SandboxMode): number {
  return SANDBOX_MODES.indexOf(mode);
}

export function isLooserThan(mode: SandboxMode, limit: SandboxMode): boolean {
  return looseness(mode) > looseness(limit);
}

/** The strictest of the given modes (undefined entries are ignored); `fallback` when none is given. */
export function strictestMode(fallback: SandboxMode, ...modes: (SandboxMode | undefined)[]): SandboxMode {
  return modes.reduce<SandboxMode>(
    (strictest, mode) => (mode !== undefined && looseness(mode) < looseness(strictest) ? mode : strictest),
    fallback,
  );
}

export function isConfined(mode: SandboxMode): mode is ConfinedSandboxMode {
  return mode !== 'danger-full-access';
}
