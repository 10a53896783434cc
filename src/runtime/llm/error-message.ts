/**
 * The message of anything thrown. Checked structurally, not with `instanceof Error`: errors from
 * Node built-ins may come from another realm (e.g. under a test VM context).
 */
export function errorMessage(error: unknown): string {
  if (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return (error as { message: string }).message;
  }
  return String(error);
}
