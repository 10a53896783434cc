/**
 * The caller check of docs/spec/native-messaging.md §1: the browser names the extension that started the
 * host (Chrome, Chromium, Edge: its origin `chrome-extension://<id>/`; Firefox: its id), the
 * launcher forwards it, and a caller outside the allow-list written at install time is refused
 * before a single frame is read or written.
 */

/** The exact stderr line for a refused caller (exit 2). */
export function callerNotAllowedMessage(caller: string): string {
  return `native messaging caller not allowed: ${caller}`;
}

/**
 * null when the caller may be served. Without an allow-list (a host started by hand, not through
 * an installed launcher) every caller is served; with one, the caller must be in it exactly.
 */
export function refuseNativeCaller(
  caller: string | undefined,
  allowedCallers: readonly string[] | undefined,
): string | null {
  if (allowedCallers === undefined) return null;
  if (caller !== undefined && allowedCallers.includes(caller)) return null;
  return callerNotAllowedMessage(caller ?? '');
}
