/** stdout errors that mean "the reader is gone" (docs/spec/protocol.md §1.9): stop writing, quietly. */
const CLOSED_OUTPUT_CODES = new Set(['EPIPE', 'EBADF']);

export function isClosedOutputError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLOSED_OUTPUT_CODES.has(code);
}
