/** A configuration problem detected before stdin is read: exit code 2 (docs/spec/protocol.md §12.3). */
export class CliConfigurationError extends Error {}
