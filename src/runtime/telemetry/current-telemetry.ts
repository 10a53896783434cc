/**
 * The process's telemetry, like OpenTelemetry's own global API: a server process has one, and its
 * seams (dispatcher, connection, turn, run) are far apart in the layering, so they read it here
 * instead of every constructor between them growing a parameter.
 */
import { NOOP_TELEMETRY, type Telemetry } from './telemetry';

let current: Telemetry = NOOP_TELEMETRY;

export function telemetry(): Telemetry {
  return current;
}

/** Installs `implementation` for the process (the CLI, when docs/spec/observability.md §1 says on). */
export function installTelemetry(implementation: Telemetry): void {
  current = implementation;
}

/** Back to the no-op (tests, shutdown). */
export function resetTelemetry(): void {
  current = NOOP_TELEMETRY;
}
