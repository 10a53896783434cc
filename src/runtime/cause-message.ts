/**
 * The message of anything thrown: its `message` when it has a string one, else `String(value)`
 * (docs/spec/protocol.md §10.1). Checked structurally, not with `instanceof Error`: errors from Node
 * built-ins may come from another realm (e.g. under a test VM context). The one helper for this in
 * the package: runtime, core, rpc, protocols and the client all import it from here.
 */
export function causeMessage(cause: unknown): string {
  if (
    cause !== null &&
    typeof cause === 'object' &&
    typeof (cause as { message?: unknown }).message === 'string'
  ) {
    return (cause as { message: string }).message;
  }
  return String(cause);
}
